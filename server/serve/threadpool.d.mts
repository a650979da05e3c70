export function withThreadPool<T extends Record<string, string | undefined>>(env: T): T & { UV_THREADPOOL_SIZE: string };
export function threadPoolSize(env?: Record<string, string | undefined>): number;
