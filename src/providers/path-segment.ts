// One path segment from an id (a model, a deployment): encoded, dot segments too, so no mapped id can walk
// up the upstream's path; `@` kept, a path character (Claude's versioned ids on Vertex: claude-x@20250929).
export function pathSegment(value: string): string {
  if (value === '.' || value === '..') return value.replaceAll('.', '%2E');
  return encodeURIComponent(value).replaceAll('%40', '@');
}
