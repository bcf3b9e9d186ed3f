// The signed-out pages in a real browser: each loads, every control has its label, the keyboard reaches
// the controls with a visible focus ring, and nothing overflows a 375 px phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { contrastProblems, launchBrowser, newContext, screenshotEverywhere, VIEWPORTS } from './browser.ts';

let gateway: TestGateway;
let browser: Browser;
beforeAll(async () => {
  gateway = await startTestGateway({});
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

const pages = [
  { path: '/login', heading: 'Sign in', labels: ['Email', 'Password'], button: 'Sign in' },
  { path: '/signup', heading: 'Create your account', labels: ['Email', 'Password', 'Name'], button: 'Sign up' },
  { path: '/forgot-password', heading: 'Reset your password', labels: ['Email'], button: 'Send reset link' },
  { path: '/reset-password?token=t', heading: 'Choose a new password', labels: ['New password', 'Repeat the new password'], button: 'Set password' },
  { path: '/verify-email', heading: 'Verify your e-mail address', labels: ['Email'], button: 'Send a new link' },
];

describe('signed-out pages in Chromium', () => {
  it.each(pages)('$path shows its labelled controls', async ({ path, heading, labels, button }) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${gateway.url}${path}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
    for (const label of labels) expect(await page.getByLabel(label, { exact: false }).first().isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: button, exact: true }).isVisible()).toBe(true);
    await context.close();
  });

  it('reaches the sign-in controls by keyboard with a visible focus ring', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${gateway.url}/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const focused: string[] = [];
    for (let step = 0; step < 4; step += 1) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        const style = element ? getComputedStyle(element) : null;
        const ring = style ? style.outlineStyle !== 'none' && style.outlineWidth !== '0px' : false;
        return `${element?.getAttribute('type') ?? element?.tagName.toLowerCase()}:${ring ? 'ring' : 'none'}`;
      }));
    }
    expect(focused.slice(0, 3)).toEqual(['email:ring', 'password:ring', expect.stringMatching(/:ring$/)]);
    await context.close();
  });

  it.each(['light', 'dark'] as const)('meets WCAG AA contrast in the %s scheme', async (colorScheme) => {
    for (const { path } of pages) {
      const context = await newContext(browser, { colorScheme });
      const page = await context.newPage();
      await page.goto(`${gateway.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await contrastProblems(page), path).toEqual([]);
      await context.close();
    }
  });

  // One case per page (and one for the screenshots): five pages and four screenshots in one case passed
  // alone in 9 s but went past the 20 s limit on a loaded CI machine.
  it.each(pages)('$path fits a 375 px phone without sideways scrolling', async ({ path }) => {
    const context = await newContext(browser, VIEWPORTS.phone);
    const page = await context.newPage();
    await page.goto(`${gateway.url}${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
    await context.close();
  });

  it('writes the sign-in screenshots on desktop and phone, light and dark', async () => {
    const files = await screenshotEverywhere(browser, `${gateway.url}/login`, 'login');
    expect(files).toHaveLength(4);
  }, 60_000);
});
