//! AWS shared configuration files (`~/.aws/credentials`, `~/.aws/config`),
//! read for what `object_store` takes only from the environment: static
//! keys, the session token, the region and the endpoint of the profile in
//! `AWS_PROFILE` (else `default`). Variables already set win, as in the
//! AWS CLI; SSO, `credential_process` and role chaining are not read.

use std::collections::HashMap;
use std::path::PathBuf;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};

/// `[section]` → key → value, from an INI file (`#`/`;` comments).
fn parse_ini(text: &str) -> HashMap<String, HashMap<String, String>> {
    let mut out: HashMap<String, HashMap<String, String>> = HashMap::new();
    let mut section = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.trim().to_string();
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            out.entry(section.clone())
                .or_default()
                .insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    out
}

fn home_file(var: &str, rel: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".aws").join(rel))
}

fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// The profile's settings: `credentials` under `[NAME]`, `config` under
/// `[profile NAME]` (or `[default]`); credentials win.
fn profile_settings() -> HashMap<String, String> {
    let name = std::env::var("AWS_PROFILE")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "default".into());
    let mut out = HashMap::new();
    let read = |f: Option<PathBuf>| {
        f.and_then(|p| std::fs::read_to_string(p).ok())
            .map(|t| parse_ini(&t))
    };
    if let Some(mut cfg) = read(home_file("AWS_CONFIG_FILE", "config")) {
        let section = if name == "default" {
            "default".to_string()
        } else {
            format!("profile {name}")
        };
        out.extend(cfg.remove(&section).unwrap_or_default());
    }
    if let Some(mut cred) = read(home_file("AWS_SHARED_CREDENTIALS_FILE", "credentials")) {
        out.extend(cred.remove(&name).unwrap_or_default());
    }
    out
}

/// Fill `b` from the profile where the environment is silent; returns
/// whether the endpoint is plain HTTP (then allowed: it was asked for).
pub fn fill_s3(b: &mut AmazonS3Builder) -> bool {
    let p = profile_settings();
    let pairs = [
        (
            "aws_access_key_id",
            "AWS_ACCESS_KEY_ID",
            AmazonS3ConfigKey::AccessKeyId,
        ),
        (
            "aws_secret_access_key",
            "AWS_SECRET_ACCESS_KEY",
            AmazonS3ConfigKey::SecretAccessKey,
        ),
        (
            "aws_session_token",
            "AWS_SESSION_TOKEN",
            AmazonS3ConfigKey::Token,
        ),
        ("region", "AWS_REGION", AmazonS3ConfigKey::Region),
        (
            "endpoint_url",
            "AWS_ENDPOINT_URL",
            AmazonS3ConfigKey::Endpoint,
        ),
    ];
    let mut builder = std::mem::take(b);
    if env_set("AWS_REGION") && !env_set("AWS_DEFAULT_REGION") {
        // object_store reads AWS_DEFAULT_REGION; the AWS CLI also AWS_REGION.
        if let Ok(r) = std::env::var("AWS_REGION") {
            builder = builder.with_config(AmazonS3ConfigKey::Region, r);
        }
    }
    let from_env = |var: &str| {
        env_set(var)
            || (var == "AWS_REGION" && env_set("AWS_DEFAULT_REGION"))
            || (var == "AWS_ENDPOINT_URL"
                && (env_set("AWS_ENDPOINT") || env_set("AWS_ENDPOINT_URL_S3")))
    };
    // Keys from the environment and from a profile are not mixed.
    let keys_in_env = env_set("AWS_ACCESS_KEY_ID");
    for (key, var, config) in pairs {
        let is_key = var.starts_with("AWS_ACCESS")
            || var.starts_with("AWS_SECRET")
            || var == "AWS_SESSION_TOKEN";
        if from_env(var) || (is_key && keys_in_env) {
            continue;
        }
        if let Some(v) = p.get(key) {
            builder = builder.with_config(config, v);
        }
    }
    let endpoint = builder
        .get_config_value(&AmazonS3ConfigKey::Endpoint)
        .unwrap_or_default();
    *b = builder;
    endpoint.starts_with("http://")
        || std::env::var("AWS_ALLOW_HTTP").is_ok_and(|v| v.eq_ignore_ascii_case("true"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ini_sections_and_comments() {
        let t = "# c\n[default]\naws_access_key_id = A\n[profile x]\nRegion=eu-west-1\n; c\n";
        let m = parse_ini(t);
        assert_eq!(m["default"]["aws_access_key_id"], "A");
        assert_eq!(m["profile x"]["region"], "eu-west-1");
    }
}
