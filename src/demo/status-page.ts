import { STATUS_CODES, type ServerResponse } from 'node:http';

/**
 * A response header as a string, or undefined when it is not set.
 *
 * @example
 * res.setHeader('Content-Length', 12);
 * headerOf(res, 'content-length') //=> '12'
 */
export function headerOf(res: ServerResponse, name: string): string | undefined {
  const v = res.getHeader(name);
  return v === undefined ? undefined : String(v);
}

/**
 * Ends the response with a small HTML page for `status` (linking to Location when one is set), keeping
 * any Content-Type already set; no body for HEAD.
 *
 * @example
 * res.setHeader('Location', '/relocated.html');
 * sendStatusPage(res, 301) // <title>301 Moved Permanently</title> … <a href="/relocated.html">
 */
export function sendStatusPage(res: ServerResponse, status: number, detail = ''): void {
  const reason = STATUS_CODES[status] ?? 'Status';
  const location = headerOf(res, 'location');
  const link = location === undefined ? '' : escapeHtml(location);
  const text = location === undefined ? escapeHtml(detail) : `See <a href="${link}">${link}</a>.`;
  const body = Buffer.from(
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${status} ${reason}</title></head>` +
      `<body><h1>${reason}</h1><p>${text}</p></body></html>\n`,
  );
  res.statusCode = status;
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/**
 * Answers 500 with the error's message, or drops the connection when the headers are already out.
 *
 * @example
 * serve(req, res).catch((err) => sendFailure(res, err)) // <title>500 Internal Server Error</title> … message
 */
export function sendFailure(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.removeHeader('Content-Type');
  res.removeHeader('Location');
  sendStatusPage(res, 500, err instanceof Error ? err.message : String(err));
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
