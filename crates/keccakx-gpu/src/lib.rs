//! placeholder: being built in this session
