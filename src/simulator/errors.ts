// Application errors as the service reports them: a thrown ServiceError becomes the
// `{"status":"ERROR","traceId",…,"error":{identifier,type,system,message}}` body.

export type ErrorType =
  | 'BADREQUESTEXCEPTION'
  | 'UNAUTHORIZEDEXCEPTION'
  | 'FORBIDDENEXCEPTION'
  | 'NOTFOUNDEXCEPTION'
  | 'METHODNOTALLOWEDEXCEPTION'
  | 'CONFLICTEXCEPTION'
  | 'PAYLOADTOOLARGEEXCEPTION'
  | 'INTERNALSERVERERROREXCEPTION';

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    /** An array for validation errors, one entry per problem. */
    readonly detail: string | string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(Array.isArray(detail) ? detail.join('; ') : detail);
    this.name = 'ServiceError';
  }
}

export const badRequest = (detail: string | string[]): ServiceError =>
  new ServiceError(400, 'BADREQUESTEXCEPTION', detail);
export const forbidden = (detail: string): ServiceError =>
  new ServiceError(403, 'FORBIDDENEXCEPTION', detail);
export const notFound = (detail: string): ServiceError => new ServiceError(404, 'NOTFOUNDEXCEPTION', detail);
export const conflict = (detail: string): ServiceError => new ServiceError(409, 'CONFLICTEXCEPTION', detail);

export function applicationErrorBody(error: ServiceError, traceId: string): unknown {
  return {
    status: 'ERROR',
    traceId,
    error: {
      identifier: `vidmob.scoring.${error.type.toLowerCase()}`,
      type: error.type,
      system: 'scoring',
      message: error.detail,
    },
  };
}
