import { useId, useState } from 'react'
import { IconThumbUp } from '@/components/ui/icons'
import { errorMessage } from '@/lib/api'
import type { GenerationImage } from '@/types/api'
import { useGiveFeedback } from '../api/giveFeedback'
import styles from '../library.module.css'

type Rating = NonNullable<GenerationImage['rating']>

export const COMMENT_MAX_LENGTH = 2000

interface FeedbackControlProps {
  imageId: string
  /** The feedback the server has for this image (null: none yet). */
  rating: Rating | null
  comment: string
  /** Names the image for screen readers, e.g. "image 3". */
  imageLabel: string
}

const THUMBS: Record<Rating, { text: string; flip: boolean }> = {
  up: { text: 'Good result', flip: false },
  down: { text: 'Bad result', flip: true },
}

/**
 * Thumbs up or down on one image, with an optional comment (one per image and user, editable).
 * Shows the current feedback: the server's, or the one being saved.
 */
export function FeedbackControl({ imageId, rating, comment, imageLabel }: FeedbackControlProps) {
  const feedback = useGiveFeedback()
  const commentId = useId()
  const errorId = useId()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(comment)

  // What is shown: the request under way, else its answer (until the list has it), else the props.
  const saved = feedback.isPending ? feedback.variables : feedback.isSuccess ? feedback.data : null
  const current = saved && saved.taskId === imageId ? saved : { rating, comment }
  const error = feedback.isError ? errorMessage(feedback.error) : null

  // Only saving the comment form closes it: a thumb saved while the form is open (or one whose
  // answer arrives after the form was opened) leaves the comment being written alone.
  const send = (next: Rating, text: string, closeForm = false) => {
    feedback.mutate(
      { taskId: imageId, rating: next, comment: text.trim() },
      { onSuccess: closeForm ? () => setEditing(false) : undefined },
    )
  }

  const startEditing = () => {
    setDraft(current.comment)
    setEditing(true)
  }

  return (
    <div className={styles.feedback} data-testid="feedback" data-rating={current.rating ?? ''}>
      <div className={styles.feedbackRow} role="group" aria-label={`Feedback on ${imageLabel}`}>
        {(Object.keys(THUMBS) as Rating[]).map((value) => (
          <button
            key={value}
            type="button"
            className={`${styles.feedbackThumb}${current.rating === value ? ` ${styles.feedbackThumbOn}` : ''}`}
            aria-pressed={current.rating === value}
            aria-label={THUMBS[value].text}
            title={THUMBS[value].text}
            disabled={feedback.isPending}
            onClick={() => send(value, current.comment)}
            data-testid={`feedback-${value}`}
          >
            <IconThumbUp size={18} style={THUMBS[value].flip ? { transform: 'rotate(180deg)' } : undefined} />
          </button>
        ))}
        {!editing && (
          <button
            type="button"
            className={`link-btn ${styles.feedbackCommentBtn}`}
            onClick={startEditing}
            disabled={!current.rating}
            title={current.rating ? undefined : 'Choose thumbs up or down first'}
            data-testid="feedback-comment-edit"
          >
            {current.comment ? 'Edit comment' : 'Add comment'}
          </button>
        )}
      </div>
      {!editing && current.comment && (
        <p className={styles.feedbackComment} data-testid="feedback-comment">
          “{current.comment}”
        </p>
      )}
      {editing && current.rating && (
        <form
          className={styles.feedbackForm}
          onSubmit={(e) => {
            e.preventDefault()
            send(current.rating!, draft, true)
          }}
        >
          <label htmlFor={commentId} className="visually-hidden">
            Comment on {imageLabel}
          </label>
          <textarea
            id={commentId}
            className={`input ${styles.feedbackInput}`}
            rows={2}
            maxLength={COMMENT_MAX_LENGTH}
            placeholder="What could be better? (optional)"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-describedby={error ? errorId : undefined}
            data-testid="feedback-comment-input"
          />
          <div className={styles.feedbackActions}>
            <button type="submit" className="btn btn--secondary btn--small" disabled={feedback.isPending} data-testid="feedback-save">
              Save
            </button>
            <button type="button" className="link-btn" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert" data-testid="feedback-error">
          {error}
        </p>
      )}
      {feedback.isSuccess && !editing && (
        <span className="visually-hidden" role="status">
          Thanks, your feedback was saved.
        </span>
      )}
    </div>
  )
}
