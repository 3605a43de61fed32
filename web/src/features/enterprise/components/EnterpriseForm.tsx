import { zodResolver } from '@hookform/resolvers/zod'
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { Spinner } from '@/components/ui/Spinner'
import { MSG_ONLY_NUMBERS, normalizeEmail, onlyDigits } from '@/lib/validation'
import { toast } from '@/lib/toast'
import { useSendInquiry } from '../api/sendInquiry'
import { ENTERPRISE_FAILED, ENTERPRISE_SUBMITTED, enterpriseSchema, type EnterpriseValues } from '../schema'
import styles from '../enterprise.module.css'

/** Where a form was sent from (the inquiry's `identifier`). */
export type EnterpriseSource = 'subscription' | 'enterprise-plan' | 'sidebar'

const EMPTY: EnterpriseValues = { fullName: '', email: '', contact: '', company: '' }
const CONTACT_MAX = 20

const FIELDS: Array<{
  name: keyof EnterpriseValues
  label: string
  type: string
  autoComplete: string
  inputMode?: 'numeric' | 'email'
  maxLength: number
}> = [
  { name: 'fullName', label: 'Full Name', type: 'text', autoComplete: 'name', maxLength: 128 },
  { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email', inputMode: 'email', maxLength: 320 },
  { name: 'contact', label: 'Contact No.', type: 'tel', autoComplete: 'tel', inputMode: 'numeric', maxLength: CONTACT_MAX },
  { name: 'company', label: 'Company Name', type: 'text', autoComplete: 'organization', maxLength: 200 },
]

interface EnterpriseFormProps {
  source: EnterpriseSource
  /** After a submitted inquiry (the dialog closes). */
  onSubmitted?: () => void
  autoFocus?: boolean
}

/**
 * The 'Enterprise Solutions' form (spec §2, §5, §8): every field required ('This field is
 * required'), Contact digits only (other typing is ignored, with 'Only numbers are allowed'),
 * an error clears when its field is edited. 200/201 → 'Request Submitted: …', the form cleared
 * (and closed where it is a dialog); anything else → 'There was some error: …'.
 */
export function EnterpriseForm({ source, onSubmitted, autoFocus }: EnterpriseFormProps) {
  const id = useId()
  const send = useSendInquiry()
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<EnterpriseValues>({
    resolver: zodResolver(enterpriseSchema),
    defaultValues: EMPTY,
    // Errors show on submit and clear when their field is edited (not re-checked while typing).
    reValidateMode: 'onSubmit',
  })

  const submit = handleSubmit(async (values) => {
    if (send.isPending) return
    try {
      await send.mutateAsync({
        name: values.fullName,
        email: normalizeEmail(values.email),
        contact: values.contact,
        organization: values.company,
        identifier: source,
      })
      toast.success(ENTERPRISE_SUBMITTED)
      reset(EMPTY)
      onSubmitted?.()
    } catch {
      toast.error(ENTERPRISE_FAILED)
    }
  })

  return (
    <form className={`card ${styles.enterpriseForm}`} onSubmit={submit} noValidate data-testid="enterprise-form" data-source={source}>
      <div className={styles.enterpriseFormGrid}>
        {FIELDS.map((f, index) => {
          const reg = register(f.name)
          const error = errors[f.name]?.message
          const inputId = `${id}-${f.name}`
          return (
            <div className="field" key={f.name}>
              <label htmlFor={inputId}>{f.label}</label>
              <input
                id={inputId}
                className={`input${error ? ' input--invalid' : ''}`}
                type={f.type}
                autoComplete={f.autoComplete}
                inputMode={f.inputMode}
                maxLength={f.maxLength}
                {...reg}
                onChange={(e) => {
                  if (f.name === 'contact') {
                    const digits = onlyDigits(e.target.value, CONTACT_MAX)
                    const refused = digits !== e.target.value
                    // Non-digit typing is ignored: the field keeps the digits only.
                    e.target.value = digits
                    if (refused) setError('contact', { type: 'digits', message: MSG_ONLY_NUMBERS })
                    else clearErrors('contact')
                  } else {
                    clearErrors(f.name)
                  }
                  return reg.onChange(e)
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-error` : undefined}
                autoFocus={autoFocus && index === 0}
                data-testid={`enterprise-${f.name}`}
              />
              {error && (
                <p id={`${inputId}-error`} className="field-error" data-testid={`enterprise-${f.name}-error`}>
                  {error}
                </p>
              )}
            </div>
          )
        })}
      </div>
      <button type="submit" className={`btn btn--primary ${styles.enterpriseFormSubmit}`} disabled={send.isPending} data-testid="enterprise-submit">
        {send.isPending && <Spinner label="Sending" />}
        Book An Appointment
      </button>
    </form>
  )
}
