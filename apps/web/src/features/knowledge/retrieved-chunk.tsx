import type { RetrievedChunk } from '@atelier/schemas';
import { ChunkPlace } from './chunk-place';
import { formatScore } from './format';

/** One chunk of a test retrieval: its score, its file, where it sits (`ChunkPlace`) and its text. */
export function RetrievedChunkItem({ chunk }: { chunk: RetrievedChunk }) {
  return (
    <li className="grid gap-2 rounded-lg border bg-card p-3" data-testid="retrieved-chunk">
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span className="rounded bg-primary/10 px-1.5 py-0.5 font-mono font-medium text-primary">
          {formatScore(chunk.score)}
        </span>
        <span className="min-w-0 truncate font-medium text-foreground">
          {chunk.source.filename ?? chunk.id}
        </span>
        <ChunkPlace index={chunk.source.chunk_index} metadata={chunk.metadata} />
      </div>
      <p className="line-clamp-6 whitespace-pre-wrap text-sm">{chunk.content}</p>
    </li>
  );
}
