import type { OutgoingMail } from '../accounts/mail/mail-transport.ts';

const usd = (micros: number) => `${(micros / 1_000_000).toFixed(2)} USD`;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function lowBalanceMail(to: string, balanceMicros: number, thresholdMicros: number, walletUrl: string): OutgoingMail {
  const lines = [
    `Your gateway balance is ${usd(balanceMicros)}, below the ${usd(thresholdMicros)} you asked to be told about.`,
    'Calls stop when the balance is used up. Top up or redeem a code to keep them running.',
  ];
  return {
    to,
    subject: 'Your gateway balance is low',
    text: [...lines, '', `Your wallet: ${walletUrl}`, '', '— Model gateway'].join('\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(walletUrl)}">Open my wallet</a></p><p style="color:#666">— Model gateway</p></body></html>`,
  };
}
