// The error classes the clients throw; responses the contract describes are returned as `error`, never thrown.
export { ClientConfigError } from './client-config-error.js';
export { NetworkError, type RequestErrorDetails } from './network-error.js';
export { ProblemError } from './problem-error.js';
export { TimeoutError } from './timeout-error.js';
