import { ApiError, invalid } from './errors';
import { isRecord, nowSeconds, randomId, requireString, sendBytes, sendJson } from './exchange';
import { fakeMp4 } from './media-bytes';
import { passModelSwitches } from './model-switches';
import type { Exchange, VideoJob } from './types';

function videoObject(job: VideoJob, status: 'queued' | 'in_progress' | 'completed', progress: number) {
  const done = status === 'completed';
  return {
    id: job.id,
    object: 'video',
    created_at: job.createdAt,
    status,
    model: job.model,
    progress,
    seconds: job.seconds,
    size: job.size,
    completed_at: done ? job.createdAt + 1 : null,
    expires_at: done ? job.createdAt + 3600 : null,
    remixed_from_video_id: null,
    error: null,
  };
}

/** POST /v1/videos (Sora), as JSON or multipart (multipart carries an optional input_reference image). */
export async function createVideo(ex: Exchange): Promise<void> {
  const body = ex.form
    ? Object.fromEntries([...ex.form].filter(([, value]) => typeof value === 'string'))
    : ex.json;
  if (!isRecord(body)) throw invalid('Expected a JSON or multipart/form-data body.');
  requireString(body, 'prompt');
  const model = typeof body.model === 'string' ? body.model : 'sora-2';
  const seconds = String(body.seconds ?? '4');
  const size = String(body.size ?? '720x1280');
  if (!(await passModelSwitches(ex, model, false))) return;
  const job: VideoJob = { id: randomId('video_'), model, seconds, size, createdAt: nowSeconds(), polls: 0 };
  ex.state.videos.set(job.id, job);
  sendJson(ex.res, 200, videoObject(job, 'queued', 0));
}

function findJob(ex: Exchange): VideoJob {
  const id = decodeURIComponent(ex.params[0] ?? '');
  const job = ex.state.videos.get(id);
  if (!job) throw new ApiError(404, 'not-found', `Video with id '${id}' not found.`, 'video_not_found');
  return job;
}

/** GET /v1/videos/{id}: in progress on the first poll, completed from the second, so clients must poll. */
export function retrieveVideo(ex: Exchange): void {
  const job = findJob(ex);
  job.polls += 1;
  sendJson(
    ex.res,
    200,
    job.polls === 1 ? videoObject(job, 'in_progress', 50) : videoObject(job, 'completed', 100),
  );
}

/** GET /v1/videos/{id}/content: only once a poll has reported the video completed. */
export function videoContent(ex: Exchange): void {
  const job = findJob(ex);
  if (job.polls < 2) throw invalid('Video is not ready yet; poll until its status is completed.');
  sendBytes(ex.res, 'video/mp4', fakeMp4(Number(job.seconds) || 4));
}
