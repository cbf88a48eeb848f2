// The error classes the clients throw; responses the contract describes are returned as `error`, never thrown.
export { ClientConfigError } from './client-config-error.js';
export { NetworkError, type RequestErrorDetails } from './network-error.js';
export { ProblemError } from './problem-error.js';
export { RedirectError } from './redirect-error.js';
export { RequestError } from './request-error.js';
export { ResponseParseError } from './response-parse-error.js';
export { ResponseTooLargeError } from './response-too-large-error.js';
export { TimeoutError } from './timeout-error.js';
