// A streamed chat with any of the user's models: system prompt, temperature, max tokens, a stop button,
// and the tokens and cost of each answer. Runs through the same relay, limits and metering as a key.
import { useRef, useState } from 'react';
import { Alert, Button, Grid, Group, NumberInput, Paper, ScrollArea, Select, Slider, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { currentCsrfToken } from '../api/api-client.ts';
import { listPlaygroundModels, loggedCostUsd, streamPlaygroundChat, type PlaygroundMessage } from '../api/playground-api.ts';
import { formatCount, formatUsd } from '../components/format.ts';
import type { ChatUsage } from './playground/chat-stream.ts';
import { AnswerMarkdown } from './playground/AnswerMarkdown.tsx';
import { useTranslation } from 'react-i18next';

interface Turn extends PlaygroundMessage {
  usage?: ChatUsage | null;
  costUsd?: number | null;
  error?: string | null;
  stopped?: boolean;
}

export default function PlaygroundPage() {
  const { t } = useTranslation();
  const models = useQuery({ queryKey: ['playground-models'], queryFn: listPlaygroundModels });
  const [model, setModel] = useState<string | null>(null);
  const [system, setSystem] = useState('');
  const [temperature, setTemperature] = useState(0.7);
  const [maxTokens, setMaxTokens] = useState<number | string>(512);
  const [draft, setDraft] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const [streaming, setStreaming] = useState(false);
  const chosen = model ?? models.data?.[0] ?? null;

  const send = async () => {
    if (!chosen || !draft.trim()) return;
    setProblem(null);
    const history: Turn[] = [...turns, { role: 'user', content: draft.trim() }];
    setTurns([...history, { role: 'assistant', content: '' }]);
    setDraft('');
    const abort = new AbortController();
    controller.current = abort;
    setStreaming(true);
    const update = (patch: Partial<Turn>) => setTurns((current) => [...current.slice(0, -1), { ...current[current.length - 1]!, ...patch }]);
    try {
      const messages: PlaygroundMessage[] = [
        ...(system.trim() ? [{ role: 'system' as const, content: system.trim() }] : []),
        ...history.filter((turn) => !turn.error).map(({ role, content }) => ({ role, content })),
      ];
      const { state, requestId } = await streamPlaygroundChat(
        { model: chosen, messages, temperature, max_tokens: Number(maxTokens) || 512 },
        abort.signal,
        currentCsrfToken,
        (next) => update({ content: next.text, usage: next.usage, error: next.error }),
      );
      update({ content: state.text, usage: state.usage, error: state.error, stopped: abort.signal.aborted });
      if (requestId) update({ costUsd: await loggedCostUsd(requestId) });
    } catch (error) {
      if (abort.signal.aborted) update({ stopped: true });
      else {
        setTurns(history.slice(0, -1));
        setDraft(history[history.length - 1]!.content);
        setProblem(error instanceof Error ? error.message : t('common.unreachable'));
      }
    } finally {
      controller.current = null;
      setStreaming(false);
    }
  };

  return (
    <Stack>
      <Title order={1}>{t('playground.title')}</Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="md">
            <Stack>
              <Select
                label={t('playground.model')}
                placeholder={models.isPending ? t('playground.loadingModels') : t('playground.noModels')}
                data={models.data ?? []}
                value={chosen}
                onChange={setModel}
                allowDeselect={false}
                searchable
              />
              <Textarea label={t('playground.systemPrompt')} autosize minRows={3} maxRows={10} value={system} onChange={(event) => setSystem(event.currentTarget.value)} />
              <div>
                <Text size="sm" fw={500} id="temperature-label">
                  {t('playground.temperature', { value: temperature.toFixed(1) })}
                </Text>
                <Slider aria-labelledby="temperature-label" min={0} max={2} step={0.1} value={temperature} onChange={setTemperature} label={(value) => value.toFixed(1)} />
              </div>
              <NumberInput label={t('playground.maxTokens')} min={1} max={100_000} allowDecimal={false} value={maxTokens} onChange={setMaxTokens} />
              <Button variant="default" onClick={() => setTurns([])} disabled={streaming || turns.length === 0}>
                {t('playground.clear')}
              </Button>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder p="md">
            <Stack>
              <ScrollArea h={420} type="auto" aria-label={t('playground.conversation')} aria-live="polite">
                <Stack gap="sm">
                  {turns.length === 0 ? <Text c="dimmed">{t('playground.askToStart')}</Text> : null}
                  {turns.map((turn, index) => (
                    <Paper key={index} p="sm" bg={turn.role === 'user' ? 'var(--mantine-color-default-hover)' : undefined} withBorder={turn.role === 'assistant'} data-role={turn.role}>
                      <Text size="xs" fw={700} c="dimmed">
                        {turn.role === 'user' ? t('playground.you') : chosen}
                      </Text>
                      {turn.role === 'assistant' ? (
                        <div data-testid="assistant-answer">
                          <AnswerMarkdown text={turn.content} />
                        </div>
                      ) : (
                        <Text style={{ whiteSpace: 'pre-wrap' }}>{turn.content}</Text>
                      )}
                      {turn.error ? (
                        <Text c="red" size="sm">
                          {turn.error}
                        </Text>
                      ) : null}
                      {turn.role === 'assistant' && (turn.usage || turn.stopped) ? (
                        <Text size="xs" c="dimmed" data-testid="answer-meter">
                          {turn.stopped ? `${t('playground.stopped')} ` : ''}
                          {turn.usage ? t('playground.meter', { input: formatCount(turn.usage.prompt_tokens), output: formatCount(turn.usage.completion_tokens) }) : ''}
                          {turn.costUsd !== undefined && turn.costUsd !== null ? ` · ${formatUsd(turn.costUsd)}` : ''}
                        </Text>
                      ) : null}
                    </Paper>
                  ))}
                </Stack>
              </ScrollArea>
              {problem ? (
                <Alert color="red" role="alert">
                  {problem}
                </Alert>
              ) : null}
              <Textarea
                label={t('playground.message')}
                autosize
                minRows={2}
                maxRows={8}
                value={draft}
                onChange={(event) => setDraft(event.currentTarget.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send();
                }}
              />
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {t('playground.hint')}
                </Text>
                {streaming ? (
                  <Button color="red" variant="light" onClick={() => controller.current?.abort()}>
                    {t('playground.stop')}
                  </Button>
                ) : (
                  <Button onClick={() => void send()} disabled={!chosen || !draft.trim()}>
                    {t('playground.send')}
                  </Button>
                )}
              </Group>
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
