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
