// Thrown when a successful response's body is not the JSON the contract promises (e.g. a proxy's HTML page).
import { RequestError, type RequestErrorDetails } from './request-error.js';

/** A 2xx body did not parse as JSON; `excerpt` shows its start, with credentials removed. */
export class ResponseParseError extends RequestError {
  override readonly name = 'ResponseParseError';
  /** The HTTP status of the response. */
  readonly status: number;
  /** Its Content-Type header, or undefined when it had none. */
  readonly contentType: string | undefined;
  /** The first characters of the body, credentials and control characters removed. */
  readonly excerpt: string;

  constructor(details: RequestErrorDetails & { status: number; contentType: string | undefined; excerpt: string }) {
    const type = details.contentType ?? 'no content type';
    super(
      details,
      `answered ${details.status} (${type}) with a body that is not JSON: "${details.excerpt}"`,
      '; something between the client and the service (a proxy, a captive portal, a wrong baseUrl) answered instead of the API',
    );
    this.status = details.status;
    this.contentType = details.contentType;
    this.excerpt = details.excerpt;
  }
}
