package io.vgpu.deviceplugin.config;

/** A configuration value or file the plugin cannot start with; the message says which and why. */
public final class ConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public ConfigurationException(String message) {
        super(message);
    }

    /** An error with its message and cause. */
    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
