// The error every call fails with once the client has stopped calling the service for this
// run: the circuit opened, or the service asked for a longer pause than a run sits through.
// It is not an ApiError: no request was made, and no asset is to blame.

export type StopReason = 'circuit-open' | 'long-wait';

export class ApiStoppedError extends Error {
  override readonly name = 'ApiStoppedError';
  readonly kind = 'stopped';

  constructor(
    message: string,
    readonly reason: StopReason,
  ) {
    super(message);
  }
}

export function isApiStopped(error: unknown): error is ApiStoppedError {
  return error instanceof ApiStoppedError;
}
