/** Polls `read` every 100 ms until `done` holds (at most 30 s); what it read then. @throws naming `what` */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Not reached in time: ${what}`);
}
