// One server-sent event as the text a client receives.

export function formatSseEvent(data: string, event?: string): string {
  return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}
