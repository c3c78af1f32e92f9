import { Pencil, Trash2 } from 'lucide-react';
import { Button } from './button';

/** The icon buttons of a list row: edit, then delete (each named for the row it acts on). */
export function EditDeleteButtons(props: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
  deleteDisabled?: boolean;
}) {
  return (
    <>
      <Button variant="ghost" size="icon" aria-label={props.editLabel} onClick={props.onEdit}>
        <Pencil />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        disabled={props.deleteDisabled}
        aria-label={props.deleteLabel}
        onClick={props.onDelete}
      >
        <Trash2 />
      </Button>
    </>
  );
}
