export { AppConfig, ConfigValidationError } from './app-config';
export type { SmtpSettings, StompSettings } from './app-config';
export { ConfigModule } from './config.module';
export { LogLevel, NodeEnv } from './environment';
