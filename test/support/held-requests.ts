/**
 * Requests whose body never ends, sent over raw sockets: what a sender does to hold a body the
 * server reads before it knows who sent it, until the server's request timeout.
 */
import net from "node:net";

export interface HeldRequest {
  socket: net.Socket;
  /** The answer's head (status line and headers, and what came with them), once one arrives; "" if the connection closed unanswered. */
  answer: Promise<string>;
}

/** Opens a connection and sends `head` (request line and headers, without the blank line) and `body`, announcing 100 bytes more than it sends. */
export function holdRequest(port: number, head: string, body: Buffer): Promise<HeldRequest> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`${head}\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length + 100}\r\n\r\n`);
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
