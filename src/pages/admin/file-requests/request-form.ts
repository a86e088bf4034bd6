import { allowedTypeSchema, type CreateFileRequest, type FileRequest } from '../../../../contract/file-requests';
import * as v from 'valibot';

const MIB = 1024 * 1024;

/** The request form's fields as typed: sizes in MiB, types comma-separated, the expiry as a local date-time. */
export interface RequestFormValues {
  title: string;
  message: string;
  targetKind: 'folder' | 'shares';
  folder: string;
  password: string;
  /** `datetime-local` text; empty: never. */
  expiresAt: string;
  maxFiles: string;
  maxFileMb: string;
  maxTotalMb: string;
  types: string;
  showUploads: boolean;
}

export const NEW_REQUEST_FORM: RequestFormValues = {
  title: '',
  message: '',
  targetKind: 'folder',
  folder: '',
  password: '',
  expiresAt: '',
  maxFiles: '',
  maxFileMb: '',
  maxTotalMb: '',
  types: '',
  showUploads: false,
};

/** `2030-01-15T13:00` in this browser's time zone, as a `datetime-local` input shows an instant. */
const localInput = (iso: string) => {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const mib = (bytes: number | null) => (bytes === null ? '' : String(Math.round((bytes / MIB) * 100) / 100));

export function requestFormValuesOf(request: FileRequest): RequestFormValues {
  return {
    title: request.title,
    message: request.message,
    targetKind: request.target.kind,
    folder: request.target.kind === 'folder' ? request.target.path : '',
    password: '',
    expiresAt: request.expires_at ? localInput(request.expires_at) : '',
    maxFiles: request.max_files === null ? '' : String(request.max_files),
    maxFileMb: mib(request.max_file_size),
    maxTotalMb: mib(request.max_total_size),
    types: request.allowed_types.join(', '),
    showUploads: request.show_uploads,
  };
}

export type RequestFormField = 'title' | 'folder' | 'maxFiles' | 'maxFileMb' | 'maxTotalMb' | 'types' | 'expiresAt';
export type RequestFormErrors = Partial<Record<RequestFormField, 'required' | 'invalid'>>;

const count = (text: string) => (text.trim() === '' ? null : Number(text));
const bytes = (text: string) => (text.trim() === '' ? null : Math.round(Number(text) * MIB));
const typesOf = (text: string) =>
  text
    .split(/[,\s]+/)
    .map((type) => type.trim().toLowerCase())
    .filter(Boolean);

export function validateRequestForm(values: RequestFormValues, creating: boolean): RequestFormErrors {
  const errors: RequestFormErrors = {};
  if (!values.title.trim()) errors.title = 'required';
  if (creating && values.targetKind === 'folder' && !values.folder.trim()) errors.folder = 'required';
  const maxFiles = count(values.maxFiles);
  if (maxFiles !== null && (!Number.isInteger(maxFiles) || maxFiles < 1)) errors.maxFiles = 'invalid';
  for (const field of ['maxFileMb', 'maxTotalMb'] as const) {
    const value = bytes(values[field]);
    if (value !== null && (!Number.isFinite(value) || value < 1)) errors[field] = 'invalid';
  }
  if (typesOf(values.types).some((type) => !v.is(allowedTypeSchema, type))) errors.types = 'invalid';
  if (values.expiresAt && Number.isNaN(new Date(values.expiresAt).getTime())) errors.expiresAt = 'invalid';
  return errors;
}

/** The settings both a new request and an edit send (the password only when one was typed). */
export function requestSettings(values: RequestFormValues) {
  return {
    title: values.title.trim(),
    message: values.message.trim(),
    ...(values.password && { password: values.password }),
    expires_at: values.expiresAt ? new Date(values.expiresAt).toISOString() : null,
    max_files: count(values.maxFiles),
    max_file_size: bytes(values.maxFileMb),
    max_total_size: bytes(values.maxTotalMb),
    allowed_types: typesOf(values.types),
    show_uploads: values.showUploads,
  };
}

export function newRequestBody(values: RequestFormValues): CreateFileRequest {
  return {
    ...requestSettings(values),
    target: values.targetKind === 'folder' ? { kind: 'folder', path: values.folder.trim() } : { kind: 'shares' },
  };
}
