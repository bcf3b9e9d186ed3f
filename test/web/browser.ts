// Debian's Chromium driven by playwright-core (never a downloaded browser: there is no download here).
// Screenshots go to test-results/screenshots/<name>-<width>-<scheme>.png for a person to look at.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--no-first-run'],
  });
}

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 740 } } as const;
type ColorScheme = 'light' | 'dark';

export async function newContext(browser: Browser, options: { width?: number; height?: number; colorScheme?: ColorScheme } = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: options.width ?? VIEWPORTS.desktop.width, height: options.height ?? VIEWPORTS.desktop.height },
    colorScheme: options.colorScheme ?? 'light',
  });
}

/** The page at desktop and phone width, light and dark: four screenshots. */
export async function screenshotEverywhere(browser: Browser, url: string, name: string, prepare?: (page: Page) => Promise<void>, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<string[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const files: string[] = [];
  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport, colorScheme, ...(storageState ? { storageState } : {}) });
      const page = await context.newPage();
      await page.goto(url);
      if (prepare) await prepare(page);
      await page.waitForLoadState('networkidle');
      const file = join(SCREENSHOT_DIR, `${name}-${label}-${colorScheme}.png`);
      await page.screenshot({ path: file, fullPage: true });
      files.push(file);
      await context.close();
    }
  }
  return files;
}

interface ContrastProblem {
  text: string;
  ratio: number;
  required: number;
}

/**
 * Every visible piece of text on the page whose contrast with its effective background is below WCAG AA
 * (4.5:1, or 3:1 for large text: 24 px, or 18.66 px bold). Disabled controls are exempt, as in WCAG.
 */
export async function contrastProblems(page: Page): Promise<ContrastProblem[]> {
  return page.evaluate(() => {
    const parse = (value: string): [number, number, number, number] => {
      const match = value.match(/rgba?\(([^)]+)\)/);
      if (!match) return [0, 0, 0, 0];
      const parts = match[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
    };
    const luminance = ([r, g, b]: number[]) => {
      const channel = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    };
    const background = (element: Element | null): [number, number, number] => {
      for (let node = element; node; node = node.parentElement) {
        const [r, g, b, a] = parse(getComputedStyle(node).backgroundColor);
        if (a > 0.5) return [r, g, b];
      }
      return [255, 255, 255];
    };
    const problems: Array<{ text: string; ratio: number; required: number }> = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const element = node.parentElement;
      if (!text || !element) continue;
      const rect = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      if (element.closest('[disabled], [aria-disabled="true"], [data-disabled]')) continue;
      const [r, g, b, a] = parse(style.color);
      const back = background(element);
      // A translucent text colour is seen blended over its background.
      const seen = [r * a + back[0] * (1 - a), g * a + back[1] * (1 - a), b * a + back[2] * (1 - a)];
      const [light, dark] = [luminance(seen), luminance(back)].sort((x, y) => y - x) as [number, number];
      const ratio = (light + 0.05) / (dark + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const required = large ? 3 : 4.5;
      if (ratio < required) problems.push({ text: text.slice(0, 40), ratio: Math.round(ratio * 100) / 100, required });
    }
    return problems;
  });
}

/** Signs `who` in through the login form, as a person would, and waits for the overview. */
export async function signInThroughForm(page: Page, gatewayUrl: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${gatewayUrl}/login`);
  await page.getByLabel(/^Email/).fill(who.email);
  await page.getByLabel(/^Password/).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

/** Signs `who` in through the login form and opens the admin channel page's "Create channel" dialog. */
export async function openCreateChannelDialog(page: Page, gatewayUrl: string, who: { email: string; password: string }): Promise<Locator> {
  await signInThroughForm(page, gatewayUrl, who);
  await page.goto(`${gatewayUrl}/admin/channels`);
  await page.getByRole('button', { name: 'Create channel' }).click();
  return page.getByRole('dialog');
}
