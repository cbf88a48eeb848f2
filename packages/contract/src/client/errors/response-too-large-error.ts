// Thrown when a response body grows past the client's maxResponseBytes.
import { RequestError, type RequestErrorDetails } from './request-error.js';

/** The response body exceeded `maxResponseBytes`; the read was aborted there, so memory stays bounded. */
export class ResponseTooLargeError extends RequestError {
  override readonly name = 'ResponseTooLargeError';
  /** The HTTP status of the oversized response. */
  readonly status: number;
  /** The limit that was exceeded, in bytes. */
  readonly maxResponseBytes: number;

  constructor(details: RequestErrorDetails & { status: number; maxResponseBytes: number }) {
    super(
      details,
      `answered ${details.status} with a body larger than maxResponseBytes (${details.maxResponseBytes} bytes)`,
      '; no page of this API is that large, so check baseUrl, or raise maxResponseBytes if this is expected',
    );
    this.status = details.status;
    this.maxResponseBytes = details.maxResponseBytes;
  }
}
