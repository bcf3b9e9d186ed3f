// Whether the client's bytes may be forwarded as they are. The gateway routes and bills by the body it
// parsed, where a duplicated key keeps its last value (JSON.parse); an upstream whose parser keeps the first
// one would then serve a model the key was not checked or priced for ({"model":"costly",…,"model":"cheap"}),
// or stream when the gateway expects a whole answer. Forwarding is therefore only allowed when "model" and
// "stream" each appear at most once as literal text and the body has no \u escape (the only way to spell a
// key without its literal letters); otherwise the hop re-serialises the parsed body, which has each key once.
// A few native byte searches: no scan in JavaScript on the hot path. A nested "model" (a tool's schema, say)
// only costs the re-serialisation.
const MODEL = Buffer.from('"model"');
const STREAM = Buffer.from('"stream"');
const UNICODE_ESCAPE = Buffer.from('\\u');

const atMostOnce = (bytes: Buffer, needle: Buffer): boolean => {
  const first = bytes.indexOf(needle);
  return first < 0 || bytes.indexOf(needle, first + needle.length) < 0;
};

export function rawBodyIsUnambiguous(bytes: Buffer): boolean {
  return bytes.indexOf(UNICODE_ESCAPE) < 0 && atMostOnce(bytes, MODEL) && atMostOnce(bytes, STREAM);
}
