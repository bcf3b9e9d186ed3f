// What a conversion could not carry over. Conversions never drop silently: they return these for the log.

export interface HubWarning {
  /** dropped: the field was left out; unsupported: the target approximates it differently. */
  type: 'dropped' | 'unsupported';
  /** The source field, as the caller named it: `top_k`, `messages[1].content[0]`. */
  feature: string;
  detail: string;
}

export type WarningSink = (warning: HubWarning) => void;

/** A list with a push shorthand, handed down through a request conversion. */
export class Warnings {
  readonly list: HubWarning[] = [];

  dropped(feature: string, detail: string): void {
    this.list.push({ type: 'dropped', feature, detail });
  }

  unsupported(feature: string, detail: string): void {
    this.list.push({ type: 'unsupported', feature, detail });
  }
}
