// The HTTP ceiling: bare express (the service's version) on the service's body handling (raw bytes
// up to the same limit, then JSON.parse) answering {"signTransaction": true}. Plain JavaScript, so
// nothing is compiled at run time. Listens on 127.0.0.1:$PORT.
import express from "express";

const app = express();
app.get("/healthz", (_req, res) => res.json({ status: "ok" }));
app.post("/v1/cosigner/webhook", express.raw({ type: () => true, limit: 1024 * 1024, inflate: true }), (req, res) => {
  const body = JSON.parse(req.body.toString("utf8"));
  if (typeof body !== "object" || body === null) return res.status(400).json({ error: "not an object" });
  res.status(200).json({ signTransaction: true });
});
app.listen(Number(process.env.PORT), "127.0.0.1");
