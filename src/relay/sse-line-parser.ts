// Server-sent events cut out of decoded text, with the rules of eventsource-parser 3 (which the relay used
// before): a BOM at the very start is dropped; lines end with LF, CR or CRLF; `data` lines join with LF;
// `event` names the event (empty means none); `id` is kept unless it holds NUL; comments, `retry` and
// unknown fields are ignored; an event is dispatched at a blank line when it has data. A line not yet
// ended is carried to the next feed; text left unended when the body ends is dropped, as before.
// A class, not closures: its subclass (sse-pump.ts) is the one object an open stream keeps for parsing.
import type { EventSourceMessage } from 'eventsource-parser';

const LF = 10;
const CR = 13;
const SPACE = 32;

export abstract class SseLineParser {
  /** The text of a line not yet ended. */
  private carried = '';
  private first = true;
  private id: string | undefined = undefined;
  private eventType: string | undefined = undefined;
  private data = '';
  private dataLines = 0;

  protected abstract onEvent(event: EventSourceMessage): void;

  feed(text: string): void {
    if (this.first) {
      if (text === '') return;
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.carried !== '') {
      // Most events arrive whole; a line cut by a chunk boundary waits here until its end arrives.
      if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) {
        this.carried += text;
        return;
      }
      text = this.carried + text;
      this.carried = '';
    }
    this.carried = text.indexOf('\r') === -1 ? this.linesLf(text) : this.linesAny(text);
  }

  /** Only LF line ends (the common case): lines are found with one indexOf each. Returns the unended rest. */
  private linesLf(text: string): string {
    let start = 0;
    let end = text.indexOf('\n');
    while (end !== -1) {
      if (start === end) {
        this.dispatch();
      } else if (isData(text, start)) {
        const value = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
        if (this.dataLines === 0 && text.charCodeAt(end + 1) === LF) {
          // `data: …` followed by a blank line: the whole event at once.
          this.onEvent({ id: this.id, event: this.eventType, data: value });
          this.id = undefined;
          this.eventType = undefined;
          this.data = '';
          start = end + 2;
          end = text.indexOf('\n', start);
          continue;
        }
        this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
        this.dataLines++;
      } else {
        this.line(text, start, end);
      }
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    return start === 0 ? text : text.slice(start);
  }

  /** Any of CR, LF, CRLF; a CR at the very end waits, since an LF may follow in the next chunk. */
  private linesAny(text: string): string {
    let start = 0;
    while (start < text.length) {
      const cr = text.indexOf('\r', start);
      const lf = text.indexOf('\n', start);
      let end = -1;
      if (cr !== -1 && lf !== -1) end = cr < lf ? cr : lf;
      else if (cr !== -1) end = cr === text.length - 1 ? -1 : cr;
      else if (lf !== -1) end = lf;
      if (end === -1) break;
      if (start === end) this.dispatch();
      else this.line(text, start, end);
      start = end + 1;
      if (text.charCodeAt(start - 1) === CR && text.charCodeAt(start) === LF) start++;
    }
    return text.slice(start);
  }

  private line(text: string, start: number, end: number): void {
    if (isData(text, start)) {
      const value = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
      this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
      this.dataLines++;
      return;
    }
    if (isEvent(text, start)) {
      this.eventType = text.slice(text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || undefined;
      return;
    }
    const colon = text.indexOf(':', start);
    const fieldEnd = colon === -1 || colon > end ? end : colon;
    if (fieldEnd === start) return; // a comment
    const field = text.slice(start, fieldEnd);
    const valueStart = fieldEnd === end ? end : text.charCodeAt(fieldEnd + 1) === SPACE ? fieldEnd + 2 : fieldEnd + 1;
    const value = text.slice(Math.min(valueStart, end), end);
    if (field === 'data') {
      this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
      this.dataLines++;
    } else if (field === 'event') {
      this.eventType = value || undefined;
    } else if (field === 'id') {
      if (!value.includes('\0')) this.id = value;
    }
    // retry and unknown fields: nothing the relay reads.
  }

  private dispatch(): void {
    if (this.dataLines > 0) this.onEvent({ id: this.id, event: this.eventType, data: this.data });
    this.id = undefined;
    this.data = '';
    this.dataLines = 0;
    this.eventType = undefined;
  }
}

function isData(text: string, at: number): boolean {
  return text.charCodeAt(at) === 100 && text.charCodeAt(at + 1) === 97 && text.charCodeAt(at + 2) === 116 && text.charCodeAt(at + 3) === 97 && text.charCodeAt(at + 4) === 58;
}

function isEvent(text: string, at: number): boolean {
  return text.charCodeAt(at) === 101 && text.charCodeAt(at + 1) === 118 && text.charCodeAt(at + 2) === 101 && text.charCodeAt(at + 3) === 110 && text.charCodeAt(at + 4) === 116 && text.charCodeAt(at + 5) === 58;
}
