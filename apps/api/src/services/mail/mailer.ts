import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /**
   * True when mails leave the server (SMTP). Otherwise they are written to the server log, and the
   * links they carry are given to the admin who asked (the only way to share them).
   */
  delivers?: boolean;
}

interface Logger {
  info(obj: object, msg: string): void;
}

/** SMTP when a URL is configured; otherwise the message (and its link) goes to the server log. */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      delivers: false,
      send: async (mail) => {
        options.logger.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'mail (no SMTP_URL set)',
        );
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    delivers: true,
    send: async (mail) => {
      await transport.sendMail({ from: options.from, ...mail });
    },
  };
}
