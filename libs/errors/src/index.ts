/**
 * The error vocabulary (DESIGN §3), shared by the domain of every service, the shared domain
 * packages (@tolk/projects, @tolk/locale-file), the service frame and the gateway. An error is a
 * code and a message, never an HTTP status: @tolk/http's one error middleware maps each code to
 * its status and to the spec's body `{"error":{"code","message"}}`. Nothing here imports HTTP.
 */
export * from './errors.js';
export * from './parse-input.js';
