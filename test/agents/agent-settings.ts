// The CLIs' configuration for a gateway, exactly as the README's "Coding agents" section gives it (and
// docs/coding-agents.md explains), so the tests prove the documented settings rather than their own.

/** Claude Code's ~/.claude/settings.json: the gateway as its API, a gateway model for every alias, no outside traffic. */
export function claudeCodeSettings(gatewayUrl: string, key: string, model: string) {
  return {
    env: {
      ANTHROPIC_BASE_URL: gatewayUrl,
      ANTHROPIC_AUTH_TOKEN: key,
      ANTHROPIC_MODEL: model,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
      ANTHROPIC_DEFAULT_SONNET_MODEL: model,
      ANTHROPIC_DEFAULT_OPUS_MODEL: model,
      // Stands for the next three and DISABLE_BUG_COMMAND; named as well, as a cautious user would.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
  };
}

/** Gemini CLI's ~/.gemini/settings.json: API-key auth (headless runs exit 41 without it), statistics, telemetry and updates off. */
export const GEMINI_CLI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

/** Gemini CLI's environment: the gateway key and root; the work folder trusted for a headless run (exit 55 otherwise). */
export function geminiCliEnv(gatewayUrl: string, key: string): Record<string, string> {
  return { GEMINI_API_KEY: key, GOOGLE_GEMINI_BASE_URL: gatewayUrl, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
}

/**
 * OpenCode's ~/.config/opencode/opencode.json: the gateway as an OpenAI-compatible provider with the gateway
 * models, no auto-update, no sharing. The title agent is off so each model call of a run is the agent's own
 * (a title is one more small call, harmless for a user).
 */
export function opencodeConfig(gatewayUrl: string, models: string[]) {
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    agent: { title: { disable: true } },
    provider: {
      gateway: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Model gateway',
        options: { baseURL: `${gatewayUrl}/v1`, apiKey: '{env:GATEWAY_KEY}' },
        models: Object.fromEntries(models.map((model) => [model, {}])),
      },
    },
  };
}

/**
 * OpenCode installs its plugin SDK (@opencode-ai/plugin) from npm into its config folder at every start
 * unless that folder's node_modules and package-lock.json already list it; offline the install fails with a
 * warning and the run goes on. This lock, with an empty node_modules, keeps it off the registry.
 */
export const OPENCODE_PLUGIN_LOCK = { packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } } };

/** OpenCode's environment: the gateway key, and the switches that keep it off the network. */
export function opencodeEnv(key: string): Record<string, string> {
  return {
    GATEWAY_KEY: key,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
}
