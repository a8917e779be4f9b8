// Engine errors are API errors: the status comes from the contract's error table.
import { ApiError } from '../../platform/errors.ts';
import { ERROR_CODES, type ErrorCode } from '../../../contract/errors.ts';

export function fail(code: ErrorCode, message: string): ApiError {
  return new ApiError(ERROR_CODES[code].status, code, message);
}
