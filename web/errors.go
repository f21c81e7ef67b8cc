package web

import (
	"encoding/json"
	"net/http"
)

// ErrorJSON is the API's error shape, {"error":{"code":404,"message":"space
// not found"}}, which the sites' JSON endpoints answer too.
type ErrorJSON struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the status and client message of an ErrorJSON.
type ErrorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// WriteJSONError answers status with message in the API's error shape.
func WriteJSONError(w http.ResponseWriter, status int, message string) error {
	return WriteJSON(w, status, ErrorJSON{ErrorDetail{Code: status, Message: message}})
}

// WriteJSON answers v as JSON, and a newline, with status.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, err = w.Write(append(b, '\n'))
	return err
}
