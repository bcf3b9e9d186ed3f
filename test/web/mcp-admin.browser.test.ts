// The MCP servers admin page and the user's MCP snippets (issue 32), in Debian's Chromium against a real
// gateway and an SDK-built upstream MCP server: an administrator adds a server with its credential header,
// tests it (the tools listed come from the upstream, through the credential), disables it (the user's
// /mcp no longer lists it); the user's Keys page shows the gateway's MCP address in the Claude Code, Codex
// and Cursor snippets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startFilesServer, type UpstreamMcpServer } from '../mcp/mcp-upstream-servers.ts';
import { launchBrowser, SCREENSHOT_DIR, VIEWPORTS, signInThroughForm } from './browser.ts';

const ADMIN = { email: 'mcp-root@example.com', password: 'mcp root password 1' };
const USER = { email: 'mcp-user@example.com', password: 'mcp user password 1' };
const USER_KEY = testKey('mcpbrowseruser');
const CREDENTIAL = 'browser-test-upstream-credential';
let files: UpstreamMcpServer;
let gateway: TestGateway;
let browser: Browser;

async function userTools(): Promise<string[]> {
  const client = new Client({ name: 'browser-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${USER_KEY}` } } }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
}

async function signedIn(who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
  page.setDefaultTimeout(15_000);
  await signInThroughForm(page, gateway.url, who);
  return page;
}

beforeAll(async () => {
  files = await startFilesServer(CREDENTIAL);
  gateway = await startTestGateway({
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }, { name: 'ulla', email: USER.email, password: USER.password }],
    keys: [{ name: 'ulla-key', key: USER_KEY, user: 'ulla' }],
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await files?.close();
});

describe('the MCP servers admin page', { timeout: 90_000 }, () => {
  it('adds a server with its credential, tests it (its tools listed), and disables it', async () => {
    const page = await signedIn(ADMIN);
    await page.goto(`${gateway.url}/admin/mcp`);
    await page.getByRole('button', { name: 'Add MCP server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add MCP server' });
    await dialog.getByLabel(/^Name/).fill('files');
    await dialog.getByLabel(/^URL/).fill(files.url);
    await dialog.getByLabel(/^Credential value/).fill(`Bearer ${CREDENTIAL}`);
    await dialog.getByLabel(/^Price per call/).fill('0.002');
    await dialog.getByLabel(/^Calls per minute/).fill('600');
    await dialog.getByLabel('Allow a private-network address').check({ force: true });
    await dialog.getByRole('button', { name: 'Add server' }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'files', exact: true }) });
    await row.waitFor();
    expect(await row.textContent()).toContain('$0.002 · at most 600/min');
    expect(await page.content()).not.toContain(CREDENTIAL);
    await row.getByRole('button', { name: 'Test files' }).click();
    await expect.poll(async () => row.getByRole('status').textContent()).toMatch(/^Connected in \d+ ms; tools: /);
    const shown = await row.getByRole('status').textContent();
    for (const tool of ['echo', 'read_note', 'hang', 'crash']) expect(shown).toContain(tool);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-mcp-servers.png'), fullPage: true });
    expect(await userTools()).toEqual(['files__crash', 'files__echo', 'files__hang', 'files__read_note']);

    await row.getByRole('button', { name: 'Disable files' }).click();
    await expect.poll(async () => row.textContent()).toContain('Disabled');
    expect(await userTools()).toEqual([]);
    await row.getByRole('button', { name: 'Enable files' }).click();
    await expect.poll(async () => row.textContent()).toContain('Enabled');
    expect(await userTools()).toHaveLength(4);
  });

  it("shows the user the gateway's MCP address in ready snippets for Claude Code, Codex and Cursor", async () => {
    const page = await signedIn(USER);
    await page.goto(`${gateway.url}/keys`);
    const section = page.getByRole('region', { name: 'MCP tools' });
    await section.waitFor();
    expect(await section.textContent()).toContain(`${gateway.url}/mcp`);
    expect(await section.textContent()).toContain(`claude mcp add --transport http gateway ${gateway.url}/mcp`);
    await section.getByRole('tab', { name: 'Codex' }).click();
    expect(await section.getByRole('tabpanel').textContent()).toContain(`[mcp_servers.gateway]\nurl = "${gateway.url}/mcp"`);
    await section.getByRole('tab', { name: 'Cursor' }).click();
    expect(await section.getByRole('tabpanel').textContent()).toContain(`"url": "${gateway.url}/mcp"`);
    await section.screenshot({ path: join(SCREENSHOT_DIR, 'keys-mcp-snippets.png') });
  });
});
