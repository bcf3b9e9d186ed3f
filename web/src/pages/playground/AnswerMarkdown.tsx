// An answer rendered as Markdown (headings, lists, tables, code) with react-markdown, which builds React
// elements from the Markdown's syntax tree: raw HTML in an answer is never injected into the page (no
// rehype-raw), and link addresses pass react-markdown's URL filter (no javascript: links). A model's output
// is untrusted text; this keeps it text.
import { memo } from 'react';
import { Typography } from '@mantine/core';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

const components: Components = {
  // Links leave the dashboard in a new tab, without the opener or a referrer.
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
  // Images would load from anywhere the model names (and the page's policy refuses them): show the link.
  img: ({ src, alt }) => (typeof src === 'string' ? <a href={src} target="_blank" rel="noopener noreferrer nofollow">{alt || src}</a> : <>{alt}</>),
};

export const AnswerMarkdown = memo(function AnswerMarkdown({ text }: { text: string }) {
  return (
    <Typography className="answer-markdown">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </Markdown>
    </Typography>
  );
});
