import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenData, UInfo } from '@/domain/auth/types';
import { getToasts, toast } from '@/lib/toast';
import { ApiError, createApiClient, download, fileNameFromDisposition, get, post, setApiNavigator, setHttpClient } from '@/lib/api-client';
import { i18next, setLocale } from '@/lib/i18n';
import { clearAuth, saveToken, saveUInfo, store, tokenAtom, uinfoAtom } from '@/lib/store';

type Reply = { status: number; data: unknown; headers?: Record<string, string> };
let requests: InternalAxiosRequestConfig[] = [];

function adapterFor(reply: (config: InternalAxiosRequestConfig) => Reply | 'network') {
  return async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    requests.push(config);
    const r = reply(config);
    if (r === 'network') throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
    const response: AxiosResponse = {
      data: r.data,
      status: r.status,
      statusText: String(r.status),
      headers: new AxiosHeaders(r.headers ?? { 'content-type': 'application/json' }),
      config,
    };
    if (r.status >= 200 && r.status < 300) return response;
    throw new AxiosError(`Request failed with status code ${r.status}`, AxiosError.ERR_BAD_RESPONSE, config, {}, response);
  };
}

function use(reply: Parameters<typeof adapterFor>[0]) {
  setHttpClient(createApiClient({ adapter: adapterFor(reply) }));
}

const token: TokenData = { access_token: 'acc-123', token_type: 'bearer', expires_in: 7200, refresh_token: 'ref-456' };
const uinfo = {
  userId: 'u1',
  userName: '张老师',
  mobile: '',
  gender: 'male',
  platformName: '',
  icon: '',
  orgType: 21,
  currentTypePath: '/k12',
  accounts: [
    { accountId: 'a1', accountNum: 'teacher01', orgId: 'o1', orgName: '一中', orgType: 21, tenantOrgId: 't1', tenantOrgName: '一中', presentFlag: true, roles: [] },
  ],
  menuTree: [],
  permissions: ['k12:org:class:view'],
} satisfies UInfo;

beforeEach(() => {
  requests = [];
  clearAuth();
  toast.dismiss();
});
afterEach(async () => {
  await setLocale('zh_cn');
  vi.restoreAllMocks();
});

describe('api client', () => {
  it('sends platform, timestamp, requestId, accept-language, and after sign-in Authorization and orgId', async () => {
    use(() => ({ status: 200, data: { code: '200', data: { ok: 1 }, msg: '' } }));
    await expect(get('/api/x')).resolves.toEqual({ ok: 1 });
    let h = AxiosHeaders.from(requests[0].headers);
    expect(h.get('platform')).toBe('web');
    expect(String(h.get('timestamp'))).toMatch(/^\d{13}$/);
    expect(String(h.get('requestId'))).toMatch(/^\d{13}[a-z0-9]+$/);
    expect(h.get('accept-language')).toBe('zh-CN');
    expect(h.has('Authorization')).toBe(false);
    expect(h.has('orgId')).toBe(false);

    saveToken(token);
    saveUInfo(uinfo);
    await setLocale('en_us');
    await post('/api/y', { a: 1 });
    h = AxiosHeaders.from(requests[1].headers);
    expect(h.get('Authorization')).toBe('bearer acc-123');
    expect(h.get('orgId')).toBe('t1');
    expect(h.get('accept-language')).toBe('en-US');
    expect(requests[1].timeout).toBe(60_000);
  });

  it('rejects a non-200 envelope with the server message', async () => {
    use(() => ({ status: 200, data: { code: '500', data: null, msg: '验证码错误' } }));
    const error = await post('/api/sso/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('验证码错误');
    expect((error as ApiError).code).toBe('500');
  });

  it('keeps the message of a 4xx envelope and falls back to the catalogue for 5xx and network failures', async () => {
    use(() => ({ status: 400, data: { code: '400', data: null, msg: '请求参数有误' } }));
    await expect(get('/api/a')).rejects.toThrow('请求参数有误');
    use(() => ({ status: 502, data: '<html>bad gateway</html>' }));
    await expect(get('/api/a')).rejects.toThrow(i18next.t('errors:server'));
    use(() => 'network');
    await expect(get('/api/a')).rejects.toThrow('数据请求出现异常，请检查网络及服务器状态是否正常。');
  });

  it('on HTTP 401 warns, clears the stored credentials and goes to login with rt', async () => {
    saveToken(token);
    saveUInfo(uinfo);
    const navigate = vi.fn();
    setApiNavigator(navigate);
    window.history.pushState({}, '', '/busi/k12/org/class?page=2');
    use(() => ({ status: 401, data: { code: '401', data: null, msg: 'expired' } }));
    const error = await get('/api/busi/web/myInfo/getUInfo').catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(401);
    expect(store.get(tokenAtom)).toBeNull();
    expect(store.get(uinfoAtom)).toBeNull();
    expect(localStorage.getItem('tiyu.token')).toBeNull();
    expect(getToasts().some((t) => t.open && t.kind === 'warning' && t.message === '当前登录状态已过期，请重新登录')).toBe(true);
    expect(navigate).toHaveBeenCalledWith('/?rt=%2Fk12%2Forg%2Fclass%3Fpage%3D2');
  });

  it('downloads a blob with the RFC 5987 file name, and reports failures', async () => {
    use(() => ({
      status: 200,
      data: new Blob(['x']),
      headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'content-disposition': "attachment; filename=\"a.xlsx\"; filename*=UTF-8''%E5%AF%BC%E5%85%A5_3_1.xlsx" },
    }));
    const file = await download('/api/export');
    expect(file.fileName).toBe('导入_3_1.xlsx');
    expect(requests[0].responseType).toBe('blob');

    use(() => ({ status: 500, data: new Blob(['oops']) }));
    await expect(download('/api/export')).rejects.toThrow('下载失败，请联系管理员');
  });

  it('parses content-disposition file names', () => {
    expect(fileNameFromDisposition('attachment; filename="report.xlsx"')).toBe('report.xlsx');
    expect(fileNameFromDisposition("attachment; filename*=utf-8''%E6%88%90%E7%BB%A9.xlsx")).toBe('成绩.xlsx');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition(undefined)).toBe('');
  });
});
