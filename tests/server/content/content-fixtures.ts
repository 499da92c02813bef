import { expect } from 'vitest';
import { filePaths, type StoredFile } from '@/domain/uploads/stored-file';
import { dataOf } from '../../support/factories';
import type { AsAnswer, TestApp } from '../../support/server-app';
import { multipartBody } from '../files/fixtures';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls of the content screens: `/api/busi/web/<url>` as an account (`t.as`), in a language. */
export function contentClient(t: TestApp) {
  const call = (method: Method, url: string, account: string, payload?: unknown, lang = 'zh-CN') =>
    t.as(account, { language: lang }).request(method, url.startsWith('/') ? url : `/api/busi/web/${url}`, payload);
  const data = async <T>(answer: Promise<AsAnswer>, status = 200) => dataOf(await answer, status) as T;
  const refused = async (answer: Promise<AsAnswer>, status: number, msg?: string, field?: string) => {
    const a = (await answer) as AsAnswer<{ field?: string } | null>;
    expect(a.status, JSON.stringify(a.body)).toBe(status);
    if (msg !== undefined) expect(a.body.msg).toBe(msg);
    if (field !== undefined) expect(a.body.data?.field).toBe(field);
  };
  const upload = async (account: string, purpose: string, name: string, bytes: Buffer) => {
    const body = multipartBody(name, bytes);
    return dataOf(await t.as(account).post<StoredFile>(`${filePaths.upload}?purpose=${purpose}`, body.payload, { headers: { 'content-type': body.contentType } }));
  };
  return { call, data, refused, upload };
}
