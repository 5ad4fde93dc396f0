/**
 * Requests node's HTTP parser (or its own checks) refuses before any app sees them, each with
 * the status and code every Tolk server answers it with (libs/http/src/express-server.ts).
 * `path` is where they are sent; a POST so that a body is expected.
 */
export function malformedRequests(path: string) {
  return [
    {
      name: 'headers past the limit',
      bytes: `GET ${path} HTTP/1.1\r\nHost: tolk\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      status: 431,
      code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      message: /exceed 16384 bytes/,
    },
    {
      name: 'a URL past the limit',
      bytes: `GET ${path}?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: tolk\r\n\r\n`,
      status: 431,
      code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      message: /URL or a header too long/,
    },
    {
      name: 'a malformed chunk size',
      bytes: `POST ${path} HTTP/1.1\r\nHost: tolk\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: /chunked request body is malformed/,
    },
    {
      name: 'Transfer-Encoding and Content-Length together',
      bytes: `POST ${path} HTTP/1.1\r\nHost: tolk\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: /length is ambiguous: Content-Length can't be present with Transfer-Encoding/,
    },
    {
      name: 'two Content-Lengths',
      bytes: `POST ${path} HTTP/1.1\r\nHost: tolk\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: /length is ambiguous: Duplicate Content-Length/,
    },
    {
      name: 'no Host',
      bytes: `GET ${path} HTTP/1.1\r\n\r\n`,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: /needs a Host header/,
    },
    {
      name: 'an unknown Expect',
      bytes: `POST ${path} HTTP/1.1\r\nHost: tolk\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}`,
      status: 417,
      code: 'EXPECTATION_FAILED',
      message: /100-continue/,
    },
    {
      name: 'a request line that is not HTTP',
      bytes: `HELLO ${path}\r\n\r\n`,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: /Malformed HTTP request/,
    },
    {
      name: 'a header name with a space',
      bytes: `GET ${path} HTTP/1.1\r\nHost: tolk\r\nBad Header: x\r\n\r\n`,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: /Malformed HTTP request: Invalid header token/,
    },
  ];
}
