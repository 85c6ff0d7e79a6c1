/**
 * Issues requests in one go and waits for all. If issuing one throws (a browser may throw
 * QuotaExceededError synchronously), the requests already issued will be aborted with the
 * transaction; their rejections are observed here so they do not surface as unhandled.
 */
export async function issueAll<T>(requests: readonly (() => Promise<T>)[]): Promise<T[]> {
  const pending: Promise<T>[] = [];
  try {
    for (const request of requests) pending.push(request());
  } catch (error) {
    for (const promise of pending) promise.catch(() => {});
    throw error;
  }
  return Promise.all(pending);
}
