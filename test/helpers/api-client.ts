// A tiny browser for /api: keeps the session cookie, and sends X-CSRF-Token once it knows it.
export interface ApiAnswer<T = Record<string, any>> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export class ApiClient {
  cookie: string | undefined;
  csrf: string | undefined;
  /** Send the CSRF token on state changes (turn off to test the 403). */
  sendCsrf = true;
  readonly baseUrl: string;
  readonly bearer: string | undefined;
  constructor(baseUrl: string, bearer?: string) {
    this.baseUrl = baseUrl;
    this.bearer = bearer;
  }

  async call<T = Record<string, any>>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookie) headers.cookie = this.cookie;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    if (this.csrf && this.sendCsrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const value = /^gw_session=([^;]*)/.exec(setCookie)?.[1];
      this.cookie = value ? `gw_session=${value}` : undefined;
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch { /* not JSON (CSV, HTML) */ }
    const answer = { status: response.status, body: parsed as T, headers: response.headers, text };
    const csrf = (parsed as { csrf_token?: string } | null)?.csrf_token;
    if (typeof csrf === 'string') this.csrf = csrf;
    return answer;
  }

  get = <T = Record<string, any>>(path: string) => this.call<T>('GET', path);
  post = <T = Record<string, any>>(path: string, body?: unknown) => this.call<T>('POST', path, body ?? {});
  patch = <T = Record<string, any>>(path: string, body: unknown) => this.call<T>('PATCH', path, body);
  put = <T = Record<string, any>>(path: string, body: unknown) => this.call<T>('PUT', path, body);
  delete = <T = Record<string, any>>(path: string) => this.call<T>('DELETE', path);
}
