// Thrown when a client is built with options it cannot work with.

/** A client option is missing or invalid; the message names the option and how to fix it, never a credential's value. */
export class ClientConfigError extends Error {
  override readonly name = 'ClientConfigError';
  /** The option at fault, e.g. `baseUrl` or `retry.attempts`. */
  readonly option: string;

  constructor(option: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.option = option;
  }
}
