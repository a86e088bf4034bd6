/** What every viewer is given: the file's inline URL (same origin, Range allowed), its download URL and name. */
export interface ViewerProps {
  src: string;
  downloadUrl: string;
  filename: string;
}
