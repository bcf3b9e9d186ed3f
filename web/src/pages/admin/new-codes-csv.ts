// The codes of a batch just created, as CSV (code, amount, note): the only moment they can be exported,
// since the gateway keeps only their hashes.

// A note starting with = + - @ would run as a formula in a spreadsheet: a leading ' keeps it text.
const cell = (raw: string) => {
  const value = /^[=+\-@]/.test(raw) ? `'${raw}` : raw;
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
};

export function newCodesCsv(codes: readonly string[], amountUsd: number, note: string): string {
  const lines = ['code,amount_usd,note', ...codes.map((code) => [code, amountUsd.toFixed(2), note].map(cell).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** Saves text as a file through a temporary object URL (no server round trip: the codes stay in the page). */
export function downloadText(text: string, fileName: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
