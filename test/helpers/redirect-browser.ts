// A browser reduced to what a sign-in redirect chain needs: one cookie jar for localhost (cookies are not
// port-scoped, as in a real browser), redirects followed by hand so each hop can be looked at or replayed.
interface Hop {
  url: string;
  status: number;
  location: string | null;
}

export class RedirectBrowser {
  readonly cookies = new Map<string, string>();

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** One GET without following; cookies remembered. */
  async get(url: string): Promise<Hop> {
    const response = await fetch(url, { redirect: 'manual', headers: this.cookies.size ? { cookie: this.cookieHeader() } : {} });
    this.remember(response);
    await response.arrayBuffer();
    const location = response.headers.get('location');
    return { url, status: response.status, location: location ? new URL(location, url).href : null };
  }

  /** Follows redirects from `url` until one matches `stop` (not requested) or a page answers. */
  async follow(url: string, stop?: (next: string) => boolean, maxHops = 20): Promise<{ hops: Hop[]; stoppedAt: string | null }> {
    const hops: Hop[] = [];
    let next: string | null = url;
    while (next && hops.length < maxHops) {
      if (stop && hops.length > 0 && stop(next)) return { hops, stoppedAt: next };
      const hop = await this.get(next);
      hops.push(hop);
      next = hop.status >= 300 && hop.status < 400 ? hop.location : null;
    }
    return { hops, stoppedAt: null };
  }
}
