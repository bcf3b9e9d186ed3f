// /api/admin/mcp-servers: the upstream MCP servers /mcp fronts (issue 32), edited at runtime: add, edit
// (the credential is write-only), enable or disable, choose the groups that see it, delete, and test
// (connect and list its tools). Every change is audited and announced to every instance.
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import type { ApiCaller } from '../api-caller.ts';
import { recordAudit } from '../../admin/audit-log.ts';
import { requireKnownGroups } from '../../admin/admin-number-rules.ts';
import { mcpServerPatchSchema, mcpServerSchema } from '../../config/mcp-server-schema.ts';
import { createMcpServer, editMcpServer, findMcpServerOr404, removeMcpServer, testMcpServer } from '../../admin/admin-mcp-servers.ts';
import { listMcpServers } from '../../db/repositories/mcp-servers.ts';
import { mcpServerView } from '../../mcp/mcp-server-rows.ts';
import { actorOf } from './admin-routes.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const adminMcpAnswers = () => import('./answers/admin-mcp-answers.ts');

export function adminMcpRoutes(api: ApiRouter, accounts: AccountsDeps): void {
  const admin = { tag: 'Administration', access: 'admin' as const, allowKeys: true };
  const db = accounts.db;
  const view = (row: Parameters<typeof mcpServerView>[0]) => mcpServerView(row, accounts.secrets);
  const changed = async (caller: ApiCaller, action: string, target: string, before: unknown, after: unknown) => {
    await recordAudit(db, actorOf(caller), action, target, before, after);
    await accounts.announce({ reason: action });
  };

  api.route({
    ...admin, method: 'GET', url: '/api/admin/mcp-servers', answer: lazyAnswer(adminMcpAnswers, (m) => m.mcpServersAnswer), summary: 'Upstream MCP servers: address, transport, groups, price, status (credentials only as their kind and header names).',
    handler: async () => ({ data: (await listMcpServers(db)).map(view) }),
  });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/mcp-servers', answer: lazyAnswer(adminMcpAnswers, (m) => m.mcpServerAnswer), status: 201, body: mcpServerSchema, summary: "Add an MCP server (the config file's mcp_servers shape; headers and oauth are write-only).",
    handler: async ({ caller, body }) => {
      await requireKnownGroups(db, body.groups, 'groups');
      const row = await createMcpServer(db, accounts.secrets, body);
      await changed(caller, 'mcp_server.create', `mcp_server:${row.id}`, null, view(row));
      return view(row);
    },
  });
  api.route({
    ...admin, method: 'PATCH', url: '/api/admin/mcp-servers/:id', answer: lazyAnswer(adminMcpAnswers, (m) => m.mcpServerAnswer), params: idParams, body: mcpServerPatchSchema, summary: 'Edit an MCP server: enable or disable it, its groups, price, timeout; headers or oauth replace its credential (null clears it).',
    handler: async ({ caller, params, body }) => {
      if (body.groups) await requireKnownGroups(db, body.groups, 'groups');
      const { before, after } = await editMcpServer(db, accounts.secrets, params.id, body);
      await changed(caller, 'mcp_server.update', `mcp_server:${params.id}`, view(before), { ...view(after), ...(body.headers !== undefined || body.oauth !== undefined ? { credential: 'changed' } : {}) });
      return view(after);
    },
  });
  api.route({
    ...admin, method: 'DELETE', url: '/api/admin/mcp-servers/:id', answer: lazyAnswer(adminMcpAnswers, (m) => m.mcpServerDeletedAnswer), params: idParams, summary: 'Delete an MCP server; its calls stay in the usage log.',
    handler: async ({ caller, params }) => {
      const row = await removeMcpServer(db, params.id);
      await changed(caller, 'mcp_server.delete', `mcp_server:${params.id}`, view(row), null);
      return { id: params.id, deleted: true as const };
    },
  });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/mcp-servers/:id/test', answer: lazyAnswer(adminMcpAnswers, (m) => m.mcpServerTestAnswer), params: idParams, summary: 'Connect to the server with its credential (even while disabled) and list its tools.',
    handler: async ({ params }) => ({ name: (await findMcpServerOr404(db, params.id)).name, ...(await testMcpServer(await findMcpServerOr404(db, params.id), accounts.secrets)) }),
  });
}
