/** The Overview screen's words (issue 34): catalogue messages, English as the default. */
import { defineMessages } from 'react-intl'
import messages from './messages.messages.json' with { type: 'json' }

export const overviewMessages = defineMessages(messages.overviewMessages)
