/** The one error of the file layer: a stable code the model or an HTTP client reads. */

import { CodedError } from "../errors";

/** HTTP status for each file error code. */
export const FILE_ERROR_STATUS = {
  invalid_path: 400,
  invalid_data_url: 400,
  invalid_range: 416,
  invalid_cursor: 400,
  results_private: 403,
  not_found: 404,
  is_a_directory: 409,
  not_a_directory: 409,
  length_required: 411,
  file_too_large: 413,
  quota_exceeded: 413,
  link_unavailable: 503,
} as const;

/** A file error code. */
export type FileErrorCode = keyof typeof FILE_ERROR_STATUS;

/** An expected failure of a file operation, e.g. a refused path or a full workspace. */
export class FilesError extends CodedError<FileErrorCode> {
  /** The HTTP status this error answers with. */
  get status(): (typeof FILE_ERROR_STATUS)[FileErrorCode] {
    return FILE_ERROR_STATUS[this.code];
  }
}
