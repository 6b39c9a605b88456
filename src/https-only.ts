/**
 * Where the service may send a credential or fetch what decides a signature: over TLS, or to this
 * machine (a proxy or provider beside the service, a test's server). Plain http to another host
 * would carry the custody API's bearer JWT and the address book, or the OIDC issuer's keys, in
 * clear across the network, for anyone on the path to read or rewrite.
 */

/** URL.hostname spellings of this machine; an IPv6 address keeps its brackets there. */
const LOOPBACK_HOSTNAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The problem, after the variable's name, when a URL fails httpsOrLoopback. */
export const HTTPS_OR_LOOPBACK = "must be an https URL (http only on this machine: 127.0.0.1, localhost, [::1])";

/** Whether `url` is https, or http to a loopback host. */
export function httpsOrLoopback(url: URL): boolean {
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && LOOPBACK_HOSTNAMES.has(url.hostname);
}

/** The problem, after the variable's name, when a URL carries a user name or password. */
export const NO_CREDENTIALS_IN_URL = "must not contain a user name or password (fetch refuses such a URL, and its error would print it)";

/**
 * Whether `url` names a user or a password. fetch refuses such a URL with an error quoting it
 * whole, which would carry the password into logs and status rows; the service's own credentials
 * travel in headers, so no URL it fetches needs one.
 */
export function hasCredentials(url: URL): boolean {
  return url.username !== "" || url.password !== "";
}

/** The same for text: false when it is not a URL at all. */
export function isHttpsOrLoopback(text: string): boolean {
  try {
    return httpsOrLoopback(new URL(text));
  } catch {
    return false;
  }
}
