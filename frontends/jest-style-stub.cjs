// Jest (web project): a stylesheet a screen imports is nothing in jsdom.
module.exports = {};
