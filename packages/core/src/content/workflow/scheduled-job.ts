/** A scheduled publish or unpublish of one variant, kept as a row so it survives restarts. */
export interface ScheduledJob {
  readonly id: string;
  readonly projectId: string;
  readonly itemId: string;
  readonly languageId: string;
  readonly action: 'publish' | 'unpublish';
  readonly dueAt: Date;
}
