//! Link definitions for docs that name the Redis stores: the items themselves with the `redis`
//! feature, their page on docs.rs without it. `#[doc = redis_store_link!()]`.

#[cfg(feature = "redis")]
macro_rules! redis_store_link {
    () => {
        "[`RedisStore`]: crate::replay::RedisStore"
    };
}

#[cfg(not(feature = "redis"))]
macro_rules! redis_store_link {
    () => {
        "[`RedisStore`]: https://docs.rs/mrtr/latest/mrtr/replay/struct.RedisStore.html"
    };
}

#[cfg(feature = "redis")]
macro_rules! redis_task_store_link {
    () => {
        "[`RedisTaskStore`]: crate::task::RedisTaskStore"
    };
}

#[cfg(not(feature = "redis"))]
macro_rules! redis_task_store_link {
    () => {
        "[`RedisTaskStore`]: https://docs.rs/mrtr/latest/mrtr/task/struct.RedisTaskStore.html"
    };
}
