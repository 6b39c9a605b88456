/**
 * Requests whose body never ends, sent over raw sockets: what a sender does to hold a body the
 * server reads before it knows who sent it, until the server's request timeout. Each may leave from
 * another loopback address (127.0.0.2, ...), standing for another client.
 */
import { request } from "node:http";
import net from "node:net";

export interface HeldRequest {
  socket: net.Socket;
  /** The answer's head (status line and headers, and what came with them), once one arrives; "" if the connection closed unanswered. */
  answer: Promise<string>;
}

/**
 * Opens a connection from `from` and sends `head` (request line and headers, without the blank
 * line) and `body`, announcing `announced` bytes (by default 100 more than it sends).
 */
export function holdRequest(port: number, head: string, body: Buffer, options: { from?: string; announced?: number } = {}): Promise<HeldRequest> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress: options.from ?? "127.0.0.1" }, () => {
      socket.write(`${head}\r\nHost: 127.0.0.1\r\nContent-Length: ${options.announced ?? body.length + 100}\r\n\r\n`);
      socket.write(body, () => resolve({ socket, answer }));
    });
    let received = "";
    const answer = new Promise<string>((settle) => {
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("latin1");
        if (received.includes("\r\n\r\n")) settle(received);
      });
      socket.on("close", () => settle(received));
    });
    socket.on("error", reject);
  });
}

/** `promise`'s value, or "no answer" after `ms`. */
export const within = <T>(promise: Promise<T>, ms: number): Promise<T | "no answer"> =>
  Promise.race([promise, new Promise<"no answer">((resolve) => setTimeout(() => resolve("no answer"), ms))]);

export interface PlainAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** POSTs `body` to `url` over a connection from the loopback address `from`. */
export function postFrom(from: string, url: string, headers: Record<string, string>, body: Buffer | string): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers, localAddress: from, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
