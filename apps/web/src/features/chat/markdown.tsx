import { Fragment, memo, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { CodeBlock } from './code-block';
import { parseBlocks, parseInline, type Block, type Inline } from './markdown-parse';

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.kind) {
      case 'text':
        return <Fragment key={i}>{node.text}</Fragment>;
      case 'code':
        return (
          <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">
            {node.text}
          </code>
        );
      case 'strong':
        return <strong key={i}>{renderInline(node.children)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(node.children)}</em>;
      case 'link':
        return (
          <a
            key={i}
            href={node.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="text-primary underline underline-offset-2"
          >
            {renderInline(node.children)}
          </a>
        );
      case 'break':
        return <br key={i} />;
    }
  });
}

const inline = (text: string) => renderInline(parseInline(text));

const HEADING_SIZES = ['text-xl', 'text-lg', 'text-base', 'text-base', 'text-sm', 'text-sm'];

function renderBlock(block: Block, i: number, trailing?: ReactNode): ReactNode {
  switch (block.kind) {
    case 'paragraph':
      return (
        <p key={i}>
          {inline(block.text)}
          {trailing}
        </p>
      );
    case 'code':
      return <CodeBlock key={i} code={block.text} lang={block.lang} />;
    case 'heading':
      return (
        <p
          key={i}
          role="heading"
          aria-level={block.level}
          className={cn('font-semibold', HEADING_SIZES[block.level - 1])}
        >
          {inline(block.text)}
        </p>
      );
    case 'list': {
      const items = block.items.map((item, j) => <li key={j}>{inline(item)}</li>);
      return block.ordered ? (
        <ol key={i} start={block.start} className="list-decimal space-y-1 pl-5">
          {items}
        </ol>
      ) : (
        <ul key={i} className="list-disc space-y-1 pl-5">
          {items}
        </ul>
      );
    }
    case 'quote':
      return (
        <blockquote key={i} className="border-l-2 pl-3 text-muted-foreground">
          {inline(block.text)}
        </blockquote>
      );
    case 'rule':
      return <hr key={i} className="border-border" />;
  }
}

/**
 * Markdown as React elements: nothing in the text is ever read as HTML. `trailing` (the streaming
 * caret) ends the last paragraph, or follows the last block.
 */
export const Markdown = memo(function Markdown({
  text,
  trailing,
  className,
}: {
  text: string;
  trailing?: ReactNode;
  className?: string;
}) {
  const blocks = parseBlocks(text);
  const last = blocks.at(-1);
  const inLast = last?.kind === 'paragraph';
  return (
    <div data-testid="markdown" className={cn('grid gap-2 break-words text-sm leading-relaxed', className)}>
      {blocks.map((block, i) =>
        renderBlock(block, i, inLast && i === blocks.length - 1 ? trailing : undefined),
      )}
      {!inLast && trailing}
    </div>
  );
});
