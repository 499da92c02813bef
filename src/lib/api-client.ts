import axios, { AxiosError, AxiosHeaders, type AxiosInstance, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { SUCCESS_CODE, type Envelope } from '@/domain/envelope';
import { BASE_PATH, PLATFORM, REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { EXPORT_APPROVAL_FIELD, askExportApproval, keptQuery } from '@/lib/export-approval';
import { toast } from '@/lib/toast';
import { acceptLanguage, i18next } from '@/lib/i18n';
import { authorizationHeader, clearAuth, currentOrgId } from '@/lib/store';
import { ApiError } from './api-error';
import { navigateTo, setApiNavigator } from './api-navigator';
import { randomId } from './random-id';

// These live in small modules of their own so the first screen can use them without loading axios.
export { ApiError, randomId, setApiNavigator };

declare module 'axios' {
  interface AxiosRequestConfig {
    /** A 401 answer only rejects: no warning, no redirect (logout, automatic login probes). */
    skipAuthRedirect?: boolean;
  }
}

/** `data.field` of a failure envelope. */
function fieldOf(body: unknown): string | undefined {
  const data = isEnvelope(body) ? (body.data as unknown) : undefined;
  const field = typeof data === 'object' && data !== null ? (data as { field?: unknown }).field : undefined;
  return typeof field === 'string' ? field : undefined;
}

/** A string of a failure envelope's `data` (`path`, `screen`: an export refused as needing an approval names itself). */
function dataString(body: unknown, name: 'path' | 'screen'): string | undefined {
  const data = isEnvelope(body) ? (body.data as unknown) : undefined;
  const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** An ApiError of a failure envelope, with the field and the export the server named. */
function envelopeError(body: Envelope<unknown>, message: string, status: number): ApiError {
  return new ApiError(message, String(body.code), status, fieldOf(body), dataString(body, 'path'), dataString(body, 'screen'));
}

/**
 * An export refused as needing an approval (409, field `exportApproval`) opens the shell's request dialog with the
 * call's own query (a job's body), wherever the export was started (docs/product-rules.md#personal-data-access).
 */
function askApprovalOf(error: ApiError, query: unknown): ApiError {
  if (error.field !== EXPORT_APPROVAL_FIELD || !error.screen || !error.path) return error;
  error.shown = askExportApproval({ message: error.message, screen: error.screen, path: error.path, query: keptQuery(query) });
  return error;
}

/** The current route path (without the /busi base), as the rt parameter carries it. */
function currentRoutePath(): string {
  const { pathname, search } = window.location;
  const path = pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) || '/' : pathname;
  return path + search;
}

let lastUnauthorizedAt = 0;
/** A 401 was handled in the last few seconds (the route guard then skips its own warning). */
export function recentlyUnauthorized(): boolean {
  return Date.now() - lastUnauthorizedAt < 3000;
}

/** HTTP 401 (docs/product-rules.md#error-messages): warn once, forget the credentials, back to the login screen with rt. */
function handleUnauthorized(): void {
  clearAuth();
  const now = Date.now();
  // Parallel requests fail together: one warning and one redirect are enough.
  if (now - lastUnauthorizedAt < 2000) return;
  lastUnauthorizedAt = now;
  toast.warning(i18next.t(ERR.sessionExpired));
  const here = currentRoutePath();
  const onLogin = here === '/' || here.startsWith('/?');
  if (!onLogin) navigateTo(`/?rt=${encodeURIComponent(here)}`);
}

function setHeaders(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const headers = AxiosHeaders.from(config.headers);
  const timestamp = String(Date.now());
  headers.set('platform', PLATFORM);
  headers.set('timestamp', timestamp);
  headers.set('requestId', randomId());
  headers.set('accept-language', acceptLanguage());
  const authorization = authorizationHeader();
  if (authorization && !headers.has('Authorization')) headers.set('Authorization', authorization);
  const orgId = currentOrgId();
  if (orgId) headers.set('orgId', orgId);
  config.headers = headers;
  return config;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'code' in value;
}

/** Turns any axios failure into an ApiError with a message from the server or the error catalogue. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof AxiosError) {
    const res = error.response;
    if (!res) return new ApiError(i18next.t(ERR.network), 'network');
    if (res.status === 401) {
      if (error.config?.skipAuthRedirect) clearAuth();
      else handleUnauthorized();
      return new ApiError(i18next.t(ERR.sessionExpired), '401', 401);
    }
    const body: unknown = res.data;
    const msg = isEnvelope(body) && typeof body.msg === 'string' ? body.msg : '';
    if (msg) return envelopeError(body as Envelope<unknown>, msg, res.status);
    if (res.status >= 500) return new ApiError(i18next.t(ERR.server), String(res.status), res.status);
    return new ApiError(i18next.t(ERR.network), String(res.status), res.status);
  }
  return new ApiError(i18next.t(ERR.network), 'network');
}

/** Unwraps `{code,data,msg}`: code '200' gives data, anything else rejects with msg (docs/product-rules.md#calls). */
function unwrap<T>(response: AxiosResponse<unknown>): T {
  const body = response.data;
  if (!isEnvelope(body)) throw new ApiError(i18next.t(ERR.server), 'invalid', response.status);
  if (String(body.code) === SUCCESS_CODE) return body.data as T;
  if (String(body.code) === '401') {
    if (response.config?.skipAuthRedirect) clearAuth();
    else handleUnauthorized();
    throw new ApiError(i18next.t(ERR.sessionExpired), '401', response.status);
  }
  throw envelopeError(body, body.msg || i18next.t(ERR.server), response.status);
}

/** Creates the configured axios instance; tests pass their own `adapter`. */
export function createApiClient(options: { adapter?: InternalAxiosRequestConfig['adapter'] } = {}): AxiosInstance {
  const instance = axios.create({ baseURL: '', timeout: REQUEST_TIMEOUT_MS, adapter: options.adapter });
  instance.interceptors.request.use(setHeaders);
  return instance;
}

export let http: AxiosInstance = createApiClient();

/** Replaces the axios instance (tests). */
export function setHttpClient(instance: AxiosInstance): void {
  http = instance;
}

export type Params = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  skipAuthRedirect?: boolean;
}

export async function get<T>(url: string, params?: Params, options: RequestOptions = {}): Promise<T> {
  try {
    return unwrap<T>(await http.get(url, { params, ...options }));
  } catch (error) {
    throw toApiError(error);
  }
}

/** A job export's start is a POST: refused above the threshold, it opens the approval request with its body. */
export async function post<T>(url: string, body?: unknown, params?: Params, options: RequestOptions = {}): Promise<T> {
  try {
    return unwrap<T>(await http.post(url, body ?? {}, { params, ...options }));
  } catch (error) {
    throw askApprovalOf(toApiError(error), body);
  }
}

export async function put<T>(url: string, body?: unknown, params?: Params, options: RequestOptions = {}): Promise<T> {
  try {
    return unwrap<T>(await http.put(url, body ?? {}, { params, ...options }));
  } catch (error) {
    throw toApiError(error);
  }
}

export async function del<T>(url: string, params?: Params, options: RequestOptions = {}): Promise<T> {
  try {
    return unwrap<T>(await http.delete(url, { params, ...options }));
  } catch (error) {
    throw toApiError(error);
  }
}

export type ProgressHandler = (percent: number) => void;

function uploadConfig(onProgress?: ProgressHandler) {
  return {
    timeout: UPLOAD_TIMEOUT_MS,
    headers: { 'Content-Type': 'multipart/form-data' },
    onUploadProgress: (e: { loaded: number; total?: number }) => {
      if (onProgress && e.total) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    },
  };
}

/** Multipart upload with a long timeout (docs/product-rules.md#calls); answers the unwrapped envelope data. */
export async function upload<T>(url: string, formData: FormData, onProgress?: ProgressHandler): Promise<T> {
  try {
    return unwrap<T>(await http.post(url, formData, uploadConfig(onProgress)));
  } catch (error) {
    throw toApiError(error);
  }
}

export interface DownloadedFile {
  blob: Blob;
  /** From content-disposition (RFC 5987 filename* preferred); '' when absent. */
  fileName: string;
  headers: Record<string, string>;
}

/** File name of a content-disposition header: `filename*=UTF-8''…` wins over `filename="…"`. */
export function fileNameFromDisposition(header: string | null | undefined): string {
  if (!header) return '';
  const star = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (star) {
    const value = star[1].trim().replace(/^"(.*)"$/, '$1');
    const encoded = value.includes("''") ? value.slice(value.indexOf("''") + 2) : value;
    try {
      return decodeURIComponent(encoded);
    } catch {
      return encoded;
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  if (!plain) return '';
  const name = (plain[2] ?? plain[1]).trim();
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function flatHeaders(response: AxiosResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(AxiosHeaders.from(response.headers as Record<string, string>).toJSON())) {
    if (typeof v === 'string') out[k.toLowerCase()] = v;
  }
  return out;
}

/** A blob answer is an error envelope when the server sent JSON instead of the file. */
async function fileOrError(response: AxiosResponse<Blob>, failure: string): Promise<DownloadedFile> {
  const headers = flatHeaders(response);
  const blob = response.data;
  if ((headers['content-type'] ?? '').includes('application/json')) {
    let msg = '';
    try {
      const body: unknown = JSON.parse(await blob.text());
      if (isEnvelope(body)) msg = body.msg;
    } catch {
      /* not an envelope */
    }
    throw new ApiError(msg || failure, 'download', response.status);
  }
  return { blob, fileName: fileNameFromDisposition(headers['content-disposition']), headers };
}

async function blobError(error: unknown, failure: string): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof AxiosError && error.response && error.response.status !== 401) {
    const data: unknown = error.response.data;
    if (data instanceof Blob) {
      try {
        const body: unknown = JSON.parse(await data.text());
        // The field and the export travel too: `exportApproval` opens the approval request (docs/product-rules.md#personal-data-access).
        if (isEnvelope(body) && body.msg) return envelopeError(body, body.msg, error.response.status);
      } catch {
        /* not an envelope */
      }
    }
    return new ApiError(failure, 'download', error.response.status);
  }
  return toApiError(error);
}

/**
 * Downloads a file as a blob (docs/product-rules.md#calls); failure answers errors:downloadFailed unless the server
 * explains. Every file export goes through here: one refused as needing an approval opens the request dialog with
 * these params (the export's query) and rejects with an error marked `shown`.
 */
export async function download(url: string, params?: Params, method: 'get' | 'post' = 'get', body?: unknown): Promise<DownloadedFile> {
  const failure = i18next.t(ERR.downloadFailed);
  try {
    const response =
      method === 'get'
        ? await http.get<Blob>(url, { params, responseType: 'blob' })
        : await http.post<Blob>(url, body ?? {}, { params, responseType: 'blob' });
    return await fileOrError(response, failure);
  } catch (error) {
    // A file action's kept input is its query string (a job's is its body: `post`).
    throw askApprovalOf(await blobError(error, failure), params);
  }
}

/** Multipart upload whose answer is a file (imports: failure rows, counts in the file name; docs/product-rules.md#import-files, #calls). */
export async function uploadForFile(url: string, formData: FormData, onProgress?: ProgressHandler): Promise<DownloadedFile> {
  const failure = i18next.t(ERR.uploadFailed);
  try {
    const response = await http.post<Blob>(url, formData, { ...uploadConfig(onProgress), responseType: 'blob' });
    return await fileOrError(response, failure);
  } catch (error) {
    throw await blobError(error, failure);
  }
}

/** Hands a downloaded blob to the browser as a file. */
export function saveFile(file: Pick<DownloadedFile, 'blob' | 'fileName'>, fallbackName = 'download'): void {
  const href = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = file.fileName || fallbackName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
