import { expect } from 'vitest';
import type { Envelope } from '@/domain/api';
import { filePaths, type StoredFile } from '@/domain/uploads/stored-file';
import type { TestApp } from '../../support/server-app';
import { multipartBody } from '../files/fixtures';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls of the content screens: `/api/busi/web/<url>` as an account, in a language. */
export function contentClient(t: TestApp, tokens: Record<string, string>) {
  const call = (method: Method, url: string, account: string, payload?: unknown, lang = 'zh-CN') =>
    t.request({ method, url: url.startsWith('/') ? url : `/api/busi/web/${url}`, token: tokens[account], payload: payload as object, headers: { 'accept-language': lang } });
  const data = async <T>(res: Promise<{ statusCode: number; body: string; json<U>(): U }>, status = 200) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
    return r.json<Envelope<T>>().data;
  };
  const refused = async (res: Promise<{ statusCode: number; body: string; json<U>(): U }>, status: number, msg?: string, field?: string) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
    const env = r.json<Envelope<{ field?: string } | null>>();
    if (msg !== undefined) expect(env.msg).toBe(msg);
    if (field !== undefined) expect(env.data?.field).toBe(field);
  };
  const upload = async (account: string, purpose: string, name: string, bytes: Buffer) => {
    const body = multipartBody(name, bytes);
    const res = await t.request({ method: 'POST', url: `${filePaths.upload}?purpose=${purpose}`, token: tokens[account], headers: { 'content-type': body.contentType }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Envelope<StoredFile>>().data;
  };
  return { call, data, refused, upload };
}
