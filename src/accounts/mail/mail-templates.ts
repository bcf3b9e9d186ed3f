// The mails the gateway sends, each with a text and an HTML part.
import type { OutgoingMail } from './mail-transport.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]!));

function mail(to: string, subject: string, lines: string[], link?: { url: string; label: string }): OutgoingMail {
  const text = [...lines, ...(link ? ['', `${link.label}: ${link.url}`] : []), '', '— Model gateway'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`
    + (link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p><p style="color:#666;font-size:13px">${escapeHtml(link.url)}</p>` : '')
    + '<p style="color:#666">— Model gateway</p></body></html>';
  return { to, subject, text, html };
}

export const verifyEmailMail = (to: string, url: string) =>
  mail(to, 'Confirm your e-mail address', ['Confirm your e-mail address to finish signing up. The link works once, for 24 hours.', 'If you did not sign up, ignore this mail.'], { url, label: 'Confirm my address' });

export const alreadyRegisteredMail = (to: string, signInUrl: string, resetUrl: string) =>
  mail(to, 'You already have an account', ['Someone (maybe you) tried to sign up with this address, which already has an account.', `Sign in at ${signInUrl}, or reset your password at ${resetUrl}.`, 'If it was not you, ignore this mail: nothing has changed.']);

export const resetPasswordMail = (to: string, url: string) =>
  mail(to, 'Reset your password', ['Someone asked to reset the password of your account. The link works once, for 1 hour.', 'Setting a new password signs out every session.', 'If it was not you, ignore this mail.'], { url, label: 'Choose a new password' });

export const setPasswordMail = (to: string, url: string) =>
  mail(to, 'Set your password', ['An administrator created an account for you. Choose a password to start. The link works once, for 24 hours.'], { url, label: 'Set my password' });

export const changeEmailMail = (to: string, url: string) =>
  mail(to, 'Confirm your new e-mail address', ['Confirm this address to make it the one your account uses. The link works once, for 24 hours.', 'If you did not ask for this, ignore this mail.'], { url, label: 'Confirm my new address' });

export const testMail = (to: string) =>
  mail(to, 'Test mail from the model gateway', ['This is a test mail sent from the administration settings. Mail delivery works.']);

export const organisationInviteMail = (to: string, organisation: string, inviter: string, url: string) =>
  mail(to, `Join ${organisation} on the model gateway`, [`${inviter} invited you to the organisation "${organisation}". The link works once, for 7 days.`, 'Sign in (or create an account with this address) and follow the link to join.', 'If you were not expecting this, ignore this mail.'], { url, label: 'Join the organisation' });
